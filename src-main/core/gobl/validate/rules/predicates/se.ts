// Sweden (regimes/se): VAT codes (org number + "01"), organisation numbers and person /
// coordination numbers, all Luhn-checked. GOBL names both identity checksums "luhn checksum";
// they differ in which format they check, so they are told apart by assertion id.
import type { PredicateTable } from './table.ts';
import { luhnValid } from './luhn.ts';
import { hasTaxIdCode, identityOfType, partyIdentities } from './party.ts';

const ORG_NR = /^\d{10}$/;
const INDIVIDUAL_NR = /^\d{6}[-+]\d{4}$/;

function digitsOf(code: string): string {
  return code.replace(/\D/g, '');
}

function validVatCode(code: string): boolean {
  return code.length === 12 && code.slice(10) === '01' && /^[+-]?\d+$/.test(code) && luhnValid(code.slice(0, 10));
}

export const se: PredicateTable = {
  valid: (v) => typeof v === 'string' && v !== '' && validVatCode(v),
  'has tax ID code or identity with type in [ON, PN, CN]': (v) => hasTaxIdCode(v) || identityOfType(partyIdentities(v), 'ON', 'PN', 'CN') !== undefined,
  'valid org number': (v) => typeof v === 'string' && v !== '' && ORG_NR.test(digitsOf(v)),
  'valid individual number': (v) => typeof v === 'string' && v !== '' && INDIVIDUAL_NR.test(v),
  // the format assertions report malformed codes; the checksums skip them
  'GOBL-SE-ORG-IDENTITY-02 luhn checksum': (v) => typeof v !== 'string' || v === '' || !ORG_NR.test(digitsOf(v)) || luhnValid(digitsOf(v)),
  'GOBL-SE-ORG-IDENTITY-04 luhn checksum': (v) => typeof v !== 'string' || v === '' || !INDIVIDUAL_NR.test(v) || luhnValid(digitsOf(v)),
};
