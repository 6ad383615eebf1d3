// it-sdi addon (Italy, FatturaPA / SDI): Latin-1 texts, Italian parties and fiscal codes,
// deferred invoices, fund contributions, VAT exemptions and retained taxes.
import type { PredicateTable } from './table.ts';
import { hasTaxIdCode, identityOfKey, partyIdentities, taxIdCountry } from './party.ts';
import { hasTag, isNil, keyHas, list, obj, str } from '../values.ts';
import type { Check } from '../model.ts';

const RETAINED_CATEGORIES = new Set(['IRPEF', 'IRES', 'INPS', 'ENPAM', 'ENASARCO', 'CP']);

// Latin and Latin-1: no code point above 255.
function latin1(v: unknown): boolean {
  for (const ch of str(v)) if (ch.codePointAt(0)! > 255) return false;
  return true;
}

const italianParty = (p: unknown): boolean => obj(p) !== undefined && obj(obj(p)?.tax_id) !== undefined && taxIdCountry(p) === 'IT';
const hasFiscalCode = (p: unknown): boolean => identityOfKey(partyIdentities(p), 'it-fiscal-code') !== undefined;

/** A check on the invoice's customer, `otherwise` when there is none. */
function onCustomer(check: (c: Record<string, any>) => boolean, otherwise: boolean): Check {
  return (v) => {
    const c = obj(obj(v)?.customer);
    return c ? check(c) : otherwise;
  };
}

export const itSdi: PredicateTable = {
  latin1,
  'supplier is Italian': (v) => italianParty(obj(v)?.supplier),
  // a name is needed with a tax ID code, or when there are no people to name
  'customer name check': onCustomer((c) => (hasTaxIdCode(c) || isNil(c.people) ? str(c.name) !== '' : true), true),
  'customer people check': onCustomer((c) => str(c.name) !== '' || list(c.people).length > 0, true),
  'Italian customer without fiscal code': onCustomer((c) => italianParty(c) && !hasFiscalCode(c), false),
  'Italian customer without tax ID code': onCustomer((c) => italianParty(c) && !hasTaxIdCode(c), false),
  'has fiscal code': (v) => Array.isArray(v) && identityOfKey(v, 'it-fiscal-code') !== undefined,
  'has deferred tag': (v) => obj(v) !== undefined && hasTag(v, 'deferred'),
  'no deferred tag': (v) => !obj(v) || !hasTag(v, 'deferred'),
  'payment instructions check': (v) => {
    const p = obj(obj(v)?.payment);
    if (!p) return true;
    return list(obj(p.terms)?.due_dates).length === 0 || !isNil(p.instructions);
  },
  'is fund contribution': (v) => obj(v) !== undefined && keyHas(obj(v)?.key, 'fund-contribution'),
  'street or postbox': (v) => {
    const a = obj(v);
    return !a || str(a.street) !== '' || str(a.po_box) !== '';
  },
  'Italian address': (v) => obj(v) !== undefined && str(obj(v)?.country) === 'IT',
  'VAT without percent': (v) => obj(v) !== undefined && str(obj(v)?.cat) === 'VAT' && isNil(obj(v)?.percent),
  'is retained tax': (v) => obj(v) !== undefined && RETAINED_CATEGORIES.has(str(obj(v)?.cat)),
};
