// Singapore (regimes/sg): UEN formats (identities and GST numbers) and the supplier's GST code
// or UEN identity.
import type { PredicateTable } from './table.ts';
import { onCode } from './table.ts';
import { hasTaxIdCode, identityOfType, partyIdentities } from './party.ts';

const UEN = [/^(19[0-9]{2}|20[0-9]{2})\d{5}[A-Z]$/, /^\d{8}[A-Z]$/, /^[TS]\d{2}[A-Z]{2}\d{4}[A-Z]$/];
const GST = [...UEN, /^M[A-Z0-9]\d{7}[A-Z]$/];

export const sg: PredicateTable = {
  valid: onCode((code) => GST.some((re) => re.test(code))),
  'valid UEN': onCode((code) => UEN.some((re) => re.test(code))),
  'has GST tax ID code or UEN identity': (v) => hasTaxIdCode(v) || identityOfType(partyIdentities(v), 'UEN') !== undefined,
};
