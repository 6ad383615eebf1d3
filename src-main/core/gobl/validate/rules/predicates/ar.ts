// Argentina (regimes/ar): CUIT / CUIL codes.
import { onCode, weightedSum } from './table.ts';
import type { PredicateTable } from './table.ts';

const TYPE_PREFIXES = new Set(['20', '23', '27', '30', '33']);

function validCuit(code: string): boolean {
  if (!/^\d{11}$/.test(code) || !TYPE_PREFIXES.has(code.slice(0, 2))) return false;
  let expected = 11 - (weightedSum(code, [5, 4, 3, 2, 7, 6, 5, 4, 3, 2]) % 11);
  if (expected === 11) expected = 0;
  else if (expected === 10) expected = 9;
  return Number(code[10]) === expected;
}

export const ar: PredicateTable = {
  valid: onCode(validCuit),
};
