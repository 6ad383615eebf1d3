// FR: a valid SIREN given instead of a VAT code gains its two-digit VAT key
// (`732829320` → `44732829320`).
import type { NormRule } from '../engine/types.ts';
import { taxIdRule } from './tax-id.ts';

/** The VAT key of a SIREN: (SIREN × 100 + 12) mod 97, two digits. */
export function frenchVatKey(siren: string): string {
  return String((Number(siren) * 100 + 12) % 97).padStart(2, '0');
}

// A SIREN is nine digits whose last is the Luhn check digit of the first eight.
function isSiren(code: string): boolean {
  if (!/^[0-9]{9}$/.test(code)) return false;
  let sum = 0;
  for (let i = 7, pos = 0; i >= 0; i--, pos++) {
    let digit = code.charCodeAt(i) - 48;
    if (pos % 2 === 0) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return String((10 - (sum % 10)) % 10) === code[8];
}

export const frNormRules: NormRule[] = [
  taxIdRule(['FR'], (code) => (isSiren(code) ? frenchVatKey(code) + code : code)),
];
