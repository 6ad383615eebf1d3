// Tax country codes versus ISO country codes, as GOBL's l10n package relates them.
import { readGoblData } from '../defs/index.ts';

// The tax-only codes that stand for an ISO country (GOBL's country definitions' alt codes).
// EU has no ISO country.
const isoForTaxOnlyCode: Record<string, string> = { EL: 'GR', XI: 'GB', XU: 'GB' };

let isoCodes: Set<string> | undefined;

function knownIsoCodes(): Set<string> {
  if (isoCodes) return isoCodes;
  const schema = readGoblData<{ $defs: Record<string, { oneOf: Array<{ const: string }> }> }>(
    'schemas/l10n/iso-country-code.json',
  );
  isoCodes = new Set(schema.$defs['l10n.ISOCountryCode'].oneOf.map((c) => c.const));
  return isoCodes;
}

/** The ISO country of a tax country code (`EL` → `GR`), or '' when it has none (`EU`). */
export function taxCountryToIso(code: string): string {
  if (knownIsoCodes().has(code)) return code;
  return isoForTaxOnlyCode[code] ?? '';
}
