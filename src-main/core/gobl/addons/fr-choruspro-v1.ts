// France Chorus Pro: the invoice framework defaults to A1 (supplier invoice), line quantities
// carry at most 4 decimals, and parties get their identification scheme (1 SIRET, 2 EU tax ID,
// 3 non-EU tax ID).
import type { Node, NormRule } from '../engine/types.ts';
import { extGet, extHas, extMerge } from './ext.ts';
import { isEuMember } from './eu-members.ts';
import { rescaleDownValue } from './rescale-down.ts';
import { str } from './lookup.ts';

const FRAMEWORK = 'fr-choruspro-framework';
const SCHEME = 'fr-choruspro-scheme';

function normalizeInvoice(inv: Node): void {
  if (!inv.tax || typeof inv.tax !== 'object') inv.tax = {};
  if (!extHas(inv.tax, FRAMEWORK)) extMerge(inv.tax, { [FRAMEWORK]: 'A1' });
}

function normalizeParty(party: Node, now: Date): void {
  if (extGet(party, SCHEME) !== '') return;
  const taxId = party.tax_id;
  if (taxId && typeof taxId === 'object' && taxId.country !== 'FR') {
    extMerge(party, { [SCHEME]: isEuMember(str(taxId.country), now) ? '2' : '3' });
    return;
  }
  const identities = Array.isArray(party.identities) ? party.identities : [];
  if (identities.some((id: any) => id?.type === 'SIRET')) extMerge(party, { [SCHEME]: '1' });
}

export const frChorusproV1Rules: NormRule[] = [
  { type: 'bill.Invoice', apply: normalizeInvoice },
  {
    type: 'bill.Line',
    apply: (line) => {
      if (line.quantity !== undefined) line.quantity = rescaleDownValue(line.quantity, 4);
    },
  },
  { type: 'org.Party', apply: (party, ctx) => normalizeParty(party, ctx.now) },
];
