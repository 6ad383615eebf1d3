// Denmark (regimes/dk): CVR numbers (VAT codes and CVR identities share the mod 11 check).
import { onCode, weightedSum } from './table.ts';
import type { PredicateTable } from './table.ts';
import { hasTaxIdCode, identityOfType, partyIdentities } from './party.ts';
import { obj, str } from '../values.ts';

function validCvr(code: string): boolean {
  return /^\d{8}$/.test(code) && weightedSum(code, [2, 7, 6, 5, 4, 3, 2, 1]) % 11 === 0;
}

export const dk: PredicateTable = {
  valid: onCode(validCvr),
  "has tax ID code or identity with 'CVR' type": (v) => hasTaxIdCode(v) || identityOfType(partyIdentities(v), 'CVR') !== undefined,
  'is CVR': (v) => str(obj(v)?.type) === 'CVR',
};
