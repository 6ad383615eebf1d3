// pl-favat addon (Poland, KSeF FA(3)): supplier addresses, third-party identities of JST and
// VAT-group customers, and the legal note explaining an exemption.
import type { PredicateTable } from './table.ts';
import { notSimplified, taxExt } from './invoice.ts';
import { extCode, list, obj, str } from '../values.ts';
import type { Check } from '../model.ts';

function firstAddressHas(field: string): Check {
  return (v) => {
    const addrs = list(v);
    return addrs.length === 0 || str(obj(addrs[0])?.[field]) !== '';
  };
}

// When the customer flags itself JST / VAT group, an identity with that third-party role.
function customerRoleIdentity(flag: string, role: string): Check {
  return (v) => {
    const c = obj(obj(v)?.customer);
    if (!c || extCode(c.ext, flag) !== '1') return true;
    return list(c.identities).some((id) => extCode(obj(id)?.ext, 'pl-favat-third-party-role') === role && str(obj(id)?.code) !== '');
  };
}

const isExemptionNote = (n: unknown): boolean => str(obj(n)?.key) === 'legal' && str(obj(n)?.src) === 'pl-favat-exemption';

export const plFavat: PredicateTable = {
  'first address country': firstAddressHas('country'),
  'first address street': firstAddressHas('street'),
  'not simplified': notSimplified,
  'JST identity': customerRoleIdentity('pl-favat-jst', '8'),
  'GroupVAT identity': customerRoleIdentity('pl-favat-group-vat', '10'),
  'exemption note present': (v) => {
    const inv = obj(v);
    return !inv || taxExt(inv, 'pl-favat-exemption') === '' || list(inv.notes).some(isExemptionNote);
  },
  'single exemption note': (v) => {
    const inv = obj(v);
    return !inv || list(inv.notes).filter(isExemptionNote).length <= 1;
  },
};
