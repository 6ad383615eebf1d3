// Italy (regimes/it): partita IVA (11 digits, Luhn) and codice fiscale (16 characters with an
// odd/even table check, or 11 digits for companies).
import { onCode } from './table.ts';
import type { PredicateTable } from './table.ts';
import { luhnCheckDigit } from './luhn.ts';

const EVEN = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const ODD = 'BAKPLCQDREVOSFTGUHMINJWZYX';
const CHARS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const PERSON_CODE =
  /^(?:[A-Z][AEIOU][AEIOUX]|[AEIOU]X{2}|[B-DF-HJ-NP-TV-Z]{2}[A-Z]){2}(?:[\dLMNP-V]{2}(?:[A-EHLMPR-T](?:[04LQ][1-9MNP-V]|[15MR][\dLMNP-V]|[26NS][0-8LMNP-U])|[DHPS][37PT][0L]|[ACELMRT][37PT][01LM]|[AC-EHLMPR-T][26NS][9V])|(?:[02468LNQSU][048LQU]|[13579MPRTV][26NS])B[26NS][9V])(?:[A-MZ][1-9MNP-V][\dLMNP-V]{2}|[A-M][0L](?:[1-9MNP-V][\dLMNP-V]|[0L][1-9MNP-V]))[A-Z]$/;

function validVatCode(code: string): boolean {
  return /^\d{11}$/.test(code) && luhnCheckDigit(code.slice(0, 10)) === code[10];
}

function fiscalCodeFormat(code: string): boolean {
  if (code.length === 11) return /^\d+$/.test(code);
  return PERSON_CODE.test(code);
}

function fiscalCodeChecksum(code: string): boolean {
  if (code.length === 11) return luhnCheckDigit(code.slice(0, 10)) === code[10];
  if (code.length !== 16) return false;
  let sum = 0;
  for (let i = 0; i < 15; i++) {
    let c = CHARS.indexOf(code[i]);
    if (c < 10) c += 10; // digits count as the letters in the same position
    sum += i % 2 !== 0 ? EVEN.indexOf(CHARS[c]) : ODD.indexOf(CHARS[c]);
  }
  return CHARS[(sum % 26) + 10] === code[15];
}

export const it: PredicateTable = {
  valid: onCode(validVatCode),
  'valid format': onCode(fiscalCodeFormat),
  'valid checksum': onCode(fiscalCodeChecksum),
};
