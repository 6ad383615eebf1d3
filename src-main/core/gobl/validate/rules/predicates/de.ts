// Germany (regimes/de): USt-IdNr check digit (ISO 7064 mod 11,10); the supplier needs a VAT
// code or a tax number (Steuernummer) identity.
import { onCode } from './table.ts';
import type { PredicateTable } from './table.ts';
import { hasTaxIdCode, identityOfKey, partyIdentities } from './party.ts';
import { obj, str } from '../values.ts';

function validVatCode(code: string): boolean {
  if (!/^[1-9]\d{8}$/.test(code)) return false;
  let p = 10;
  for (let i = 0; i < 8; i++) {
    let sum = (code.charCodeAt(i) - 48 + p) % 10;
    if (sum === 0) sum = 10;
    p = (2 * sum) % 11;
  }
  const check = 11 - p === 10 ? 0 : 11 - p;
  return check === Number(code[8]);
}

export const de: PredicateTable = {
  valid: onCode(validVatCode),
  "has tax ID code or identity with 'de-tax-number' key": (v) => hasTaxIdCode(v) || identityOfKey(partyIdentities(v), 'de-tax-number') !== undefined,
  'is tax number': (v) => str(obj(v)?.key) === 'de-tax-number',
};
