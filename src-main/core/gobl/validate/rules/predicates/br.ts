// Brazil (regimes/br): CPF (11 digits) and CNPJ (14 digits) check digits; which parties are
// Brazilian (a BR tax ID or a BR address).
import { onCode } from './table.ts';
import type { PredicateTable } from './table.ts';
import { taxIdCountry } from './party.ts';
import { list, obj, str } from '../values.ts';

function checkDigitOk(code: string, weights: number[], position: number): boolean {
  let sum = 0;
  for (let i = 0; i < weights.length; i++) {
    const d = code.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return false;
    sum += d * weights[i];
  }
  const r = sum % 11;
  const actual = code.charCodeAt(position) - 48;
  return actual >= 0 && actual <= 9 && actual === (r < 2 ? 0 : 11 - r);
}

function validCpfCnpj(code: string): boolean {
  if (code.length === 14) {
    return checkDigitOk(code, [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2], 12) && checkDigitOk(code, [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2], 13);
  }
  if (code.length === 11) {
    return checkDigitOk(code, [10, 9, 8, 7, 6, 5, 4, 3, 2], 9) && checkDigitOk(code, [11, 10, 9, 8, 7, 6, 5, 4, 3, 2], 10);
  }
  return false;
}

export const br: PredicateTable = {
  valid: onCode(validCpfCnpj),
  'is Brazilian party': (v) => {
    const party = obj(v);
    if (!party) return false;
    return taxIdCountry(party) === 'BR' || list(party.addresses).some((a) => str(obj(a)?.country) === 'BR');
  },
};
