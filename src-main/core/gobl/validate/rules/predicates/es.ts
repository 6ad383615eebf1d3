// Spain (regimes/es): the NIF / NIE / CIF check of tax identity codes.
import { onCode } from './table.ts';
import type { PredicateTable } from './table.ts';

const CHECK_LETTERS = 'TRWAGMYFPDXBNJZSQVHLCKE';
const ORG_CHECK_LETTERS = 'JABCDEFGHI';
const NATIONAL = /^(\d{8})([TRWAGMYFPDXBNJZSQVHLCKE])$/;
const FOREIGNER = /^([XYZ])(\d{7})([TRWAGMYFPDXBNJZSQVHLCKE])$/;
const OTHER = /^([KLM])(\d{7})([0-9JABCDEFGHI])$/;
const ORG = /^([ABCDEFGHJNPQRSUVW])(\d{7})([0-9JABCDEFGHI])$/;

// Organisation (and K/L/M) codes: Luhn-like sum over the 7 digits; the check is a digit or letter.
function orgCheckValid(number: string, check: string): boolean {
  let sum = 0;
  for (let k = 0; k < number.length; k++) {
    let d = number.charCodeAt(k) - 48;
    if (k % 2 === 1) sum += d;
    else {
      d *= 2;
      sum += d > 9 ? d - 9 : d;
    }
  }
  const expected = (10 - (sum % 10)) % 10;
  const letter = ORG_CHECK_LETTERS.indexOf(check);
  return expected === (letter >= 0 ? letter : Number(check));
}

/** Spanish tax code: the format decides the kind (org first, as GOBL does), then its check. */
export function validSpanishTaxCode(code: string): boolean {
  let m = ORG.exec(code);
  if (m) return orgCheckValid(m[2], m[3]);
  m = NATIONAL.exec(code);
  if (m) return m[1] !== '00000000' && CHECK_LETTERS[Number(m[1]) % 23] === m[2];
  m = FOREIGNER.exec(code);
  if (m) return CHECK_LETTERS[Number(`${'XYZ'.indexOf(m[1])}${m[2]}`) % 23] === m[3];
  m = OTHER.exec(code);
  if (m) return orgCheckValid(m[2], m[3]);
  return false;
}

/** es.TaxIdentityKey: the kind of a Spanish tax identity, '' when not Spanish or unrecognised. */
export function spanishTaxIdentityKind(tid: unknown): '' | 'org' | 'national' | 'foreigner' | 'other' {
  const id = tid !== null && typeof tid === 'object' ? (tid as Record<string, unknown>) : undefined;
  const code = typeof id?.code === 'string' ? id.code : '';
  if (!code || id?.country !== 'ES') return '';
  if (ORG.test(code)) return 'org';
  if (NATIONAL.test(code)) return 'national';
  if (FOREIGNER.test(code)) return 'foreigner';
  if (OTHER.test(code)) return 'other';
  return '';
}

export const es: PredicateTable = {
  valid: onCode(validSpanishTaxCode),
};
