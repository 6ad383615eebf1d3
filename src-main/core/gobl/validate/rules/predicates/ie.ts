// Ireland (regimes/ie): VAT numbers in the old (digit, letter, 5 digits, letter) and new
// (7 digits, check letter, optional A/H) formats, mod 23 check letters.
import { onCode } from './table.ts';
import type { PredicateTable } from './table.ts';

const CHECK_CHARS = 'WABCDEFGHIJKLMNOPQRSTUV';
const OLD = /^(\d)([A-Z+*])(\d{5})([A-Z])$/;
const NEW = /^(\d{7})([A-W][AH]?)$/;

function d(s: string, i: number): number {
  return s.charCodeAt(i) - 48;
}

function validVatCode(code: string): boolean {
  let m = OLD.exec(code);
  if (m) {
    const five = m[3];
    const sum = 7 * d(five, 0) + 6 * d(five, 1) + 5 * d(five, 2) + 4 * d(five, 3) + 3 * d(five, 4) + 2 * Number(m[1]);
    return CHECK_CHARS[sum % 23] === m[4];
  }
  m = NEW.exec(code);
  if (m) {
    const seven = m[1];
    let sum = 0;
    for (let i = 0; i < 7; i++) sum += (8 - i) * d(seven, i);
    if (m[2][1] === 'A') sum += 9;
    else if (m[2][1] === 'H') sum += 72;
    return CHECK_CHARS[sum % 23] === m[2][0];
  }
  return false;
}

export const ie: PredicateTable = {
  valid: onCode(validVatCode),
};
