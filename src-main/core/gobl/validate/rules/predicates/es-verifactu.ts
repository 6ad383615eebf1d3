// es-verifactu addon (Spain, VERI*FACTU): simplified documents and customer identities.
import type { PredicateTable } from './table.ts';
import { noteKeyIs } from './invoice.ts';
import { customerHasTaxIdOrIdentity, simplifiedByDocType } from './es-sii.ts';
import { identityWithExt, partyIdentities } from './party.ts';
import { extCode, hasExt, isNil, obj, str } from '../values.ts';

const simplified = simplifiedByDocType('es-verifactu-doc-type');

export const esVerifactu: PredicateTable = {
  simplified,
  'not simplified': (v, at) => !simplified(v, at),
  'not nil': (v) => obj(v) !== undefined,
  'no identity type ext': (v) => {
    const p = obj(v);
    return !p || identityWithExt(partyIdentities(p), 'es-verifactu-identity-type') === undefined;
  },
  'has tax_id or identity': customerHasTaxIdOrIdentity('es-verifactu-identity-type'),
  'has non-VAT identity type': (v) => {
    const id = obj(v);
    return id !== undefined && hasExt(id.ext, 'es-verifactu-identity-type') && extCode(id.ext, 'es-verifactu-identity-type') !== '02';
  },
  'general note': (v) => obj(v) !== undefined && noteKeyIs(v, 'general'),
  'verifactu vat/igic': (v) => obj(v) !== undefined && ['VAT', 'IGIC'].includes(str(obj(v)?.cat)),
  'has percent': (v) => obj(v) !== undefined && !isNil(obj(v)?.percent),
};
