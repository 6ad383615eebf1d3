import { readGoblData } from './read-json.ts';

interface CurrencyDef { iso_code: string; subunits?: number; name?: string; symbol?: string }

let exponents: Map<string, number> | undefined;

function index(): Map<string, number> {
  if (exponents) return exponents;
  exponents = new Map();
  for (const file of ['currency/iso.json', 'currency/non-iso.json']) {
    for (const def of readGoblData<CurrencyDef[]>(file)) {
      exponents.set(def.iso_code, def.subunits ?? 2); // GOBL's `subunits` is the number of decimals
    }
  }
  return exponents;
}

/** Decimal places of a currency's amounts (EUR 2, JPY 0, KWD 3…), undefined for an unknown code. */
export function currencyExponent(code: string | undefined | null): number | undefined {
  if (!code) return undefined;
  return index().get(code);
}

export function isKnownCurrency(code: string | undefined | null): boolean {
  return currencyExponent(code) !== undefined;
}
