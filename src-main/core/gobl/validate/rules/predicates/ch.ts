// Switzerland (regimes/ch): UID `E` + 9 digits, mod 11 check.
import { onCode, weightedSum } from './table.ts';
import type { PredicateTable } from './table.ts';

function validUid(code: string): boolean {
  if (!/^E\d{9}$/.test(code)) return false;
  let check = 11 - (weightedSum(code.slice(1), [5, 4, 3, 2, 7, 6, 5, 4]) % 11);
  if (check === 10) return false;
  if (check === 11) check = 0;
  return Number(code[9]) === check;
}

export const ch: PredicateTable = {
  valid: onCode(validUid),
};
