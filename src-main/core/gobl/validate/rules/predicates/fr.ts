// France (regimes/fr): VAT keys (2 characters + SIREN, mod 97 key when numeric); the supplier
// needs a VAT code or a SIREN/SIRET identity.
import { onCode } from './table.ts';
import type { PredicateTable } from './table.ts';
import { hasTaxIdCode, identityOfType, partyIdentities } from './party.ts';

const SIREN_LA_POSTE = '356000000';

function validVatCode(code: string): boolean {
  if (!/^[A-Z\d]{2}\d{9}$/.test(code)) return false;
  const key = code.slice(0, 2);
  const siren = code.slice(2);
  if (/[A-Z]/.test(key) || siren === SIREN_LA_POSTE) return true;
  return String((Number(siren) * 100 + 12) % 97).padStart(2, '0') === key;
}

export const fr: PredicateTable = {
  valid: onCode(validVatCode),
  'has tax ID code or SIREN/SIRET identity': (v) => hasTaxIdCode(v) || identityOfType(partyIdentities(v), 'SIREN', 'SIRET') !== undefined,
};
