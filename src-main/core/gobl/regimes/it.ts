// IT: the codice fiscale is cleaned like a tax code; an individual's fiscal code
// given as the tax ID (deprecated `type: individual`) moves to the identities; and
// the old SDI extension names on tax combos are renamed, so documents built before
// the SDI addon existed are still accepted.
import type { Node, NormRule } from '../engine/types.ts';
import { cleanTaxCode } from './codes.ts';
import { inRegime } from './guards.ts';
import { codeOf, setCode, taxIdRule } from './tax-id.ts';

const fiscalCodeKey = 'it-fiscal-code';

// Old extension key → current key.
const renamedExtKeys: Array<[string, string]> = [
  ['it-sdi-retained-tax', 'it-sdi-retained'],
  ['it-sdi-nature', 'it-sdi-exempt'],
];

function moveFiscalCodeToIdentities(party: Node): void {
  const taxId = party.tax_id;
  if (!taxId || taxId.country !== 'IT' || taxId.type !== 'individual') return;
  const identity: Node = { key: fiscalCodeKey };
  setCode(identity, codeOf(taxId));
  delete taxId.code;
  delete taxId.type;
  // Like GOBL's org.AddIdentity: replace an identity of the same type and key in place.
  const list: Node[] = Array.isArray(party.identities) ? party.identities : [];
  const same = list.findIndex((v) => (v.type ?? '') === '' && v.key === fiscalCodeKey);
  if (same >= 0) list[same] = identity;
  else list.push(identity);
  party.identities = list;
}

function renameExtKeys(combo: Node): void {
  const ext = combo.ext;
  if (!ext || typeof ext !== 'object') return;
  let changed = false;
  for (const [from, to] of renamedExtKeys) {
    if (!(from in ext)) continue;
    if (ext[from] !== '') ext[to] = ext[from];
    else delete ext[to];
    delete ext[from];
    changed = true;
  }
  if (changed) combo.ext = Object.fromEntries(Object.entries(ext).sort(([a], [b]) => (a < b ? -1 : 1)));
}

export const itNormRules: NormRule[] = [
  taxIdRule(['IT']),
  {
    type: 'org.Identity',
    when: inRegime('IT'),
    apply(id) {
      if (id.key === fiscalCodeKey) setCode(id, cleanTaxCode(codeOf(id), 'IT'));
    },
  },
  { type: 'org.Party', when: inRegime('IT'), apply: moveFiscalCodeToIdentities },
  { type: 'tax.Combo', when: inRegime('IT'), apply: renameExtKeys },
];
