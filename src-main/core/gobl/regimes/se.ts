// SE: organisation numbers keep only their ten digits (a VAT-style "01" suffix is
// dropped); personal and coordination numbers keep their 6+4 digits with the
// separator (`+` when given anywhere, otherwise `-`). Codes with the wrong number of
// digits are left as they are.
import type { NormRule } from '../engine/types.ts';
import { digitsOnly } from './codes.ts';
import { inRegime } from './guards.ts';
import { codeOf, setCode, taxIdRule } from './tax-id.ts';

export function formatOrgNumber(code: string): string {
  let digits = digitsOnly(code);
  if (digits.length === 12 && digits.endsWith('01')) digits = digits.slice(0, 10);
  return digits.length === 10 ? digits : code;
}

export function formatPersonNumber(code: string): string {
  const trimmed = code.trim();
  if (trimmed.length === 10 && !/[-+]/.test(trimmed)) return `${trimmed.slice(0, 6)}-${trimmed.slice(6)}`;
  const digits = digitsOnly(trimmed);
  if (digits.length !== 10) return code;
  return `${digits.slice(0, 6)}${trimmed.includes('+') ? '+' : '-'}${digits.slice(6)}`;
}

export const seNormRules: NormRule[] = [
  taxIdRule(['SE']),
  {
    type: 'org.Identity',
    when: inRegime('SE'),
    apply(id) {
      if (id.type === 'ON') setCode(id, formatOrgNumber(codeOf(id)));
      else if (id.type === 'PN' || id.type === 'CN') setCode(id, formatPersonNumber(codeOf(id)));
    },
  },
];
