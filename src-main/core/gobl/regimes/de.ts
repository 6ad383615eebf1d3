// DE: a Steuernummer identity is written in its slash format: 11 digits as 3/3/5,
// 10 digits as 2/3/5. A code already in one of the official formats (3/4/4 included)
// is left alone.
import type { NormRule } from '../engine/types.ts';
import { digitsOnly } from './codes.ts';
import { inRegime } from './guards.ts';
import { codeOf, setCode, taxIdRule } from './tax-id.ts';

const officialFormat = /^(\d{2}\/\d{3}\/\d{5}|\d{3}\/\d{3}\/\d{5}|\d{3}\/\d{4}\/\d{4})$/;

export function formatTaxNumber(code: string): string {
  if (officialFormat.test(code)) return code;
  const digits = digitsOnly(code);
  if (digits.length === 11) return `${digits.slice(0, 3)}/${digits.slice(3, 6)}/${digits.slice(6)}`;
  if (digits.length === 10) return `${digits.slice(0, 2)}/${digits.slice(2, 5)}/${digits.slice(5)}`;
  return digits;
}

export const deNormRules: NormRule[] = [
  taxIdRule(['DE']),
  {
    type: 'org.Identity',
    when: inRegime('DE'),
    apply(id) {
      if (id.key === 'de-tax-number') setCode(id, formatTaxNumber(codeOf(id)));
    },
  },
];
