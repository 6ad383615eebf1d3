// Colombia (regimes/co): NIT, 9 or 10 digits with a prime-weighted mod 11 check digit.
import { onCode } from './table.ts';
import type { PredicateTable } from './table.ts';

const NIT_WEIGHTS = [3, 7, 13, 17, 19, 23, 29, 37, 41, 43, 47, 53, 59, 67, 71];

function validNit(code: string): boolean {
  if (!/^\d+$/.test(code) || code.length > 10 || code.length < 9) return false;
  const body = code.slice(0, -1);
  let sum = 0;
  for (let i = 0; i < body.length; i++) sum += (body.charCodeAt(i) - 48) * NIT_WEIGHTS[body.length - i - 1];
  sum %= 11;
  if (sum >= 2) sum = 11 - sum;
  return sum === Number(code[code.length - 1]);
}

export const co: PredicateTable = {
  valid: onCode(validNit),
};
