// de-xrechnung addon (XRechnung 3): contact details, first addresses and payment means.
import type { PredicateTable } from './table.ts';
import { keyHas, list, obj, str } from '../values.ts';
import type { Check } from '../model.ts';

// GOBL reads the first address of the list; an empty list is the "required" rule's business.
function firstAddressHas(field: string): Check {
  return (v) => {
    const addrs = list(v);
    return addrs.length === 0 || str(obj(addrs[0])?.[field]) !== '';
  };
}

function partyHasContact(field: string): Check {
  return (v) => {
    const p = obj(v);
    if (!p) return true;
    return list(p[field]).length > 0 || list(obj(list(p.people)[0])?.[field]).length > 0;
  };
}

function instructionsKeyHas(part: string): Check {
  return (v) => obj(v) !== undefined && keyHas(obj(v)?.key, part);
}

export const deXrechnung: PredicateTable = {
  'has telephones': partyHasContact('telephones'),
  'has emails': partyHasContact('emails'),
  'has locality': firstAddressHas('locality'),
  'has code': firstAddressHas('code'),
  'has credit-transfer key': instructionsKeyHas('credit-transfer'),
  'has card key': instructionsKeyHas('card'),
  'has direct-debit key': instructionsKeyHas('direct-debit'),
  'no IBAN': (v) => obj(v) !== undefined && str(obj(v)?.iban) === '',
};
