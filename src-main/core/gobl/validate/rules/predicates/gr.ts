// Greece (regimes/gr, tax country EL): AFM, 9 digits with powers-of-two weights mod 11.
import { onCode } from './table.ts';
import type { PredicateTable } from './table.ts';

function validAfm(code: string): boolean {
  if (!/^\d{9}$/.test(code)) return false;
  let sum = 0;
  for (let i = 0; i < 8; i++) sum += (code.charCodeAt(i) - 48) * (1 << (8 - i));
  return (sum % 11) % 10 === Number(code[8]);
}

export const gr: PredicateTable = {
  valid: onCode(validAfm),
};
