// India (regimes/in): GSTIN format and its base-36 check character.
import { onCode } from './table.ts';
import type { PredicateTable } from './table.ts';

const GSTIN = /^[0-9]{2}[A-Z]{5}[0-9]{4}[A-Z]{1}[1-9A-Z]{1}Z[0-9A-Z]{1}$/;

function value(ch: string): number {
  return ch >= '0' && ch <= '9' ? ch.charCodeAt(0) - 48 : ch.charCodeAt(0) - 55;
}

function validGstin(code: string): boolean {
  if (!GSTIN.test(code)) return false;
  let sum = 0;
  for (let i = 0; i < 14; i++) {
    const product = value(code[i]) * (i % 2 !== 0 ? 2 : 1);
    sum += Math.floor(product / 36) + (product % 36);
  }
  const check = (36 - (sum % 36)) % 36;
  return (check <= 9 ? String(check) : String.fromCharCode(55 + check)) === code[14];
}

export const india: PredicateTable = {
  valid: onCode(validGstin),
};
