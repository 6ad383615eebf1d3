// Poland (regimes/pl): NIP, 10 digits with a weighted mod 11 check.
import { onCode, weightedSum } from './table.ts';
import type { PredicateTable } from './table.ts';

function validNip(code: string): boolean {
  if (!/^[1-9]((\d[1-9])|([1-9]\d))\d{7}$/.test(code)) return false;
  return weightedSum(code, [6, 5, 7, 2, 3, 4, 5, 6, 7]) % 11 === Number(code[9]);
}

export const pl: PredicateTable = {
  valid: onCode(validNip),
};
