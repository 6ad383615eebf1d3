// How many decimals each currency's amounts carry, as GOBL defines them (GOBL's
// currency data, which follows ISO 4217 except where it says otherwise, e.g.
// HUF has no subunits in GOBL). Every other currency uses two.
const SUBUNITS: ReadonlyMap<string, number> = new Map([
  ...['BIF', 'BYR', 'CLP', 'DJF', 'GNF', 'HUF', 'ISK', 'JPY', 'KMF', 'KRW', 'PYG', 'RWF', 'UGX', 'VND', 'VUV',
    'XAF', 'XAG', 'XAU', 'XBA', 'XBB', 'XBC', 'XBD', 'XDR', 'XOF', 'XPD', 'XPF', 'XPT', 'XTS'].map((code) => [code, 0] as const),
  ['GBX', 1],
  ...['BHD', 'IQD', 'JOD', 'KWD', 'LYD', 'OMR', 'TND'].map((code) => [code, 3] as const),
  ['CLF', 4],
  ['MGA', 5],
  ['MRU', 5],
  ['BCH', 8],
  ['BTC', 8],
]);

const CURRENCY_CODE = /^[A-Z]{3}$/;

/** The exponent of the currency's amounts, e.g. 2 for EUR; undefined for something that is not a currency code. */
export function currencyExponent(code: unknown): number | undefined {
  if (typeof code !== 'string' || !CURRENCY_CODE.test(code)) return undefined;
  return SUBUNITS.get(code) ?? 2;
}
