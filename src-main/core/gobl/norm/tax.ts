// tax: extension maps lose empty values, VAT combos move legacy rate keys to keys, and a tax
// identity whose country has no GOBL regime gets the standard cleaning (a country with a regime
// is cleaned by that regime's own normaliser).
import { regimeDef } from '../defs/index.ts';
import type { Node, NormRule } from '../engine/types.ts';
import { isZeroNumber } from './amounts.ts';
import { goToUpper } from './strings.ts';

/** tax.Extensions Clean: entries with an empty code are removed. */
export function cleanExtensions(ext: Node): void {
  for (const key of Object.keys(ext)) {
    if (ext[key] === '' || ext[key] === null || ext[key] === undefined) delete ext[key];
  }
}

// Legacy VAT rates that name a situation rather than a rate, and the key each becomes.
const RATE_TO_KEY: Record<string, string> = {
  'exempt+reverse-charge': 'reverse-charge',
  'exempt+export': 'export',
  'exempt+eea': 'intra-community',
  'exempt+export+eea': 'intra-community',
};

/** tax.Combo's own normalisation (VAT only). */
export function normalizeCombo(combo: Node): void {
  if (combo.cat !== 'VAT') return;
  const rate = typeof combo.rate === 'string' ? combo.rate : '';
  if (rate === 'zero') {
    combo.key = 'zero';
    delete combo.rate;
    combo.percent ??= '0%';
  } else if (rate === 'exempt') {
    // Kept for old documents: the percent stays, calculation clears it for a no-percent key.
    combo.key = 'exempt';
    delete combo.rate;
  } else if (Object.hasOwn(RATE_TO_KEY, rate)) {
    combo.key = RATE_TO_KEY[rate];
    delete combo.rate;
    if (rate === 'exempt+reverse-charge') delete combo.percent;
  } else if (rate === 'standard') {
    combo.rate = 'general';
  } else if (rate.startsWith('standard+')) {
    combo.rate = `general+${rate.slice('standard+'.length)}`;
  }
  const key = typeof combo.key === 'string' ? combo.key : '';
  if (key === '') {
    // A 0% with no key is the zero key.
    if (combo.percent !== undefined && combo.percent !== null && isZeroNumber(combo.percent)) combo.key = 'zero';
  } else if (key === 'zero') {
    combo.percent ??= '0%';
  }
}

const IDENTITY_BAD_CHARS = /[^A-Z0-9Ñ&]+/gu;

/**
 * tax.NormalizeIdentity: upper case, everything but A–Z, 0–9, Ñ and & removed, and the country
 * code (then any alternative codes) removed from the front. Regimes call it with their own
 * alternative country codes.
 */
export function normalizeTaxIdentityCode(id: Node, altCodes: readonly string[] = []): void {
  if (typeof id.code !== 'string') return;
  let code = goToUpper(id.code).replace(IDENTITY_BAD_CHARS, '');
  const country = typeof id.country === 'string' ? id.country : '';
  if (country !== '' && code.startsWith(country)) code = code.slice(country.length);
  for (const alt of altCodes) if (alt !== '' && code.startsWith(alt)) code = code.slice(alt.length);
  id.code = code;
}

// GOBL looks a regime up by the exact country code (its own code or an alternative one).
function countryHasRegime(country: unknown): boolean {
  if (typeof country !== 'string' || country === '') return false;
  const def = regimeDef(country);
  return !!def && (def.country === country || (def.alt_country_codes ?? []).includes(country));
}

export const taxNormRules: NormRule[] = [
  { type: 'tax.Extensions', apply: cleanExtensions },
  { type: 'tax.Combo', apply: normalizeCombo },
  { type: 'tax.Identity', when: (id) => !countryHasRegime(id.country), apply: (id) => normalizeTaxIdentityCode(id) },
];
