// BR: addresses without a country take the party's country, from its tax ID or else
// from the first identity that names one.
import type { Node, NormRule } from '../engine/types.ts';
import { taxCountryToIso } from './countries.ts';
import { inRegime } from './guards.ts';
import { taxIdRule } from './tax-id.ts';

function partyCountry(party: Node): string {
  const taxCountry = party.tax_id?.country;
  if (typeof taxCountry === 'string' && taxCountry !== '') return taxCountryToIso(taxCountry);
  for (const identity of Array.isArray(party.identities) ? party.identities : []) {
    if (typeof identity?.country === 'string' && identity.country !== '') return identity.country;
  }
  return '';
}

export const brNormRules: NormRule[] = [
  taxIdRule(['BR']),
  {
    type: 'org.Party',
    when: inRegime('BR'),
    apply(party) {
      if (!Array.isArray(party.addresses) || party.addresses.length === 0) return;
      const country = partyCountry(party);
      if (country === '') return;
      for (const address of party.addresses) {
        if (address && (typeof address.country !== 'string' || address.country === '')) address.country = country;
      }
    },
  },
];
