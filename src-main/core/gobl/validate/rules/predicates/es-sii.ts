// es-sii addon (Spain, SII): simplified documents, customer identities, consistent line taxes.
import type { PredicateTable } from './table.ts';
import { noteKeyIs, taxExt } from './invoice.ts';
import { identityWithExt, partyIdentities } from './party.ts';
import { extCode, hasExt, isNil, list, obj, str } from '../values.ts';
import type { Check } from '../model.ts';

const VAT_OR_IGIC = new Set(['VAT', 'IGIC']);

/** A simplified document in SII/VERI*FACTU terms: doc type F2 or R5. */
export function simplifiedByDocType(key: string): Check {
  return (v) => obj(v) !== undefined && ['F2', 'R5'].includes(taxExt(v, key));
}

/** The customer has a tax ID or an identity carrying the addon's identity-type ext. */
export function customerHasTaxIdOrIdentity(extKey: string): Check {
  return (v) => {
    const p = obj(v);
    return !p || !isNil(p.tax_id) || identityWithExt(partyIdentities(p), extKey) !== undefined;
  };
}

/** Every VAT/IGIC combo of every line agrees with the first one on `same`. */
function linesAgree(same: (a: Record<string, any>, b: Record<string, any>) => boolean): Check {
  return (v) => {
    if (!Array.isArray(v)) return true;
    let ref: Record<string, any> | undefined;
    for (const line of v) {
      for (const combo of list(obj(line)?.taxes)) {
        const c = obj(combo) ?? {};
        if (!VAT_OR_IGIC.has(str(c.cat))) continue;
        if (!ref) ref = c;
        else if (!same(ref, c)) return false;
      }
    }
    return true;
  };
}

const simplified = simplifiedByDocType('es-sii-doc-type');

export const esSii: PredicateTable = {
  'not simplified': (v, at) => !simplified(v, at),
  'has tax_id or identity': customerHasTaxIdOrIdentity('es-sii-identity-type'),
  'general note': (v) => obj(v) !== undefined && noteKeyIs(v, 'general'),
  'consistent product': linesAgree((a, b) => hasExt(a.ext, 'es-sii-product') === hasExt(b.ext, 'es-sii-product')),
  'same regime': linesAgree((a, b) => extCode(a.ext, 'es-sii-regime') === extCode(b.ext, 'es-sii-regime')),
  'sii vat/igic': (v) => obj(v) !== undefined && VAT_OR_IGIC.has(str(obj(v)?.cat)),
  'has outside scope': (v) => (isNil(v) || obj(v) !== undefined) && hasExt(v, 'es-sii-outside-scope'),
  'has percent': (v) => obj(v) !== undefined && !isNil(obj(v)?.percent),
};
