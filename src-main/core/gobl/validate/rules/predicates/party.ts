// Questions regimes and addons ask about parties and their identities (org.Party, org.Identity).
import { list, obj, str } from '../values.ts';

export function taxIdCode(party: unknown): string {
  return str(obj(obj(party)?.tax_id)?.code);
}

export function hasTaxIdCode(party: unknown): boolean {
  return taxIdCode(party) !== '';
}

export function taxIdCountry(party: unknown): string {
  return str(obj(obj(party)?.tax_id)?.country);
}

/** org.IdentityForType over a list of identities. */
export function identityOfType(identities: unknown, ...types: string[]): Record<string, any> | undefined {
  return list(identities).find((id) => types.includes(str(obj(id)?.type)));
}

/** org.IdentityForKey over a list of identities. */
export function identityOfKey(identities: unknown, ...keys: string[]): Record<string, any> | undefined {
  return list(identities).find((id) => keys.includes(str(obj(id)?.key)));
}

/** An identity carrying the ext key (with a value). */
export function identityWithExt(identities: unknown, key: string): Record<string, any> | undefined {
  return list(identities).find((id) => str(obj(obj(id)?.ext)?.[key]) !== '');
}

export function partyIdentities(party: unknown): unknown[] {
  return list(obj(party)?.identities);
}
