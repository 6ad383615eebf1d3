// Belgium (regimes/be): enterprise numbers (mod 97 check); the supplier's BCE identity.
import { onCode } from './table.ts';
import type { PredicateTable } from './table.ts';
import { hasTaxIdCode, identityOfType, partyIdentities } from './party.ts';

function validEnterpriseNumber(code: string): boolean {
  if (!/^[01]?\d{9}$/.test(code)) return false;
  const val = code.length === 9 ? `0${code}` : code;
  return Number(val.slice(8, 10)) === 97 - (Number(val.slice(0, 8)) % 97);
}

export const be: PredicateTable = {
  valid: onCode(validEnterpriseNumber),
  'no BCE identity': (v) => !identityOfType(partyIdentities(v), 'BCE'),
  'no tax ID code': (v) => !hasTaxIdCode(v),
  'has BCE type': (v) => identityOfType(v, 'BCE') !== undefined,
};
