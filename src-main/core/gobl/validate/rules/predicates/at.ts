// Austria (regimes/at): UID numbers `U` + 8 digits with a Luhn-style check.
import { onCode } from './table.ts';
import type { PredicateTable } from './table.ts';

function validUid(code: string): boolean {
  if (!/^U\d{8}$/.test(code)) return false;
  let total = 0;
  for (let i = 0; i < 7; i++) {
    const x = (code.charCodeAt(i + 1) - 48) * (i % 2 === 0 ? 1 : 2);
    total += x > 9 ? Math.floor(x / 10) + (x % 10) : x;
  }
  let check = 10 - ((total + 4) % 10);
  if (check === 10) check = 0;
  return Number(code[8]) === check;
}

export const at: PredicateTable = {
  valid: onCode(validUid),
};
