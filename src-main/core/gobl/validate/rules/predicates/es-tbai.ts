// es-tbai addon (Spain, TicketBAI): simplified flag, customer identities, Bizkaia specifics.
import type { PredicateTable } from './table.ts';
import { taxExt } from './invoice.ts';
import { customerHasTaxIdOrIdentity } from './es-sii.ts';
import { spanishTaxIdentityKind } from './es.ts';
import { isNil, list, obj, str } from '../values.ts';

export const esTbai: PredicateTable = {
  'non-simplified': (v) => {
    const inv = obj(v);
    return inv !== undefined && (isNil(inv.tax) || taxExt(inv, 'es-tbai-simplified') !== 'S');
  },
  'has tax_id or identity-type identity': customerHasTaxIdOrIdentity('es-tbai-identity-type'),
  'has general note': (v) => Array.isArray(v) && list(v).some((n) => str(obj(n)?.key) === 'general'),
  'Bizkaia individual': (v) => {
    const inv = obj(v);
    if (!inv || isNil(inv.tax) || isNil(inv.supplier)) return false;
    return taxExt(inv, 'es-tbai-region') === 'BI' && spanishTaxIdentityKind(obj(inv.supplier)?.tax_id) !== 'org';
  },
  'exempt vat/igic': (v) => {
    const c = obj(v);
    return c !== undefined && ['VAT', 'IGIC'].includes(str(c.cat)) && str(c.key) === 'exempt';
  },
};
