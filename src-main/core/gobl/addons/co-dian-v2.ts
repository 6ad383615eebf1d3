// Colombia DIAN UBL 2.x: Colombian parties default to the "R-99-PN" fiscal responsibility.
import type { Node, NormRule } from '../engine/types.ts';
import { extDefaults } from './ext.ts';

function defaultFiscalResponsibility(party: Node | undefined): void {
  if (!party || typeof party !== 'object') return;
  if (party.tax_id?.country !== 'CO') return;
  extDefaults(party, { 'co-dian-fiscal-responsibility': 'R-99-PN' });
}

export const coDianV2Rules: NormRule[] = [
  {
    type: 'bill.Invoice',
    apply: (inv) => {
      defaultFiscalResponsibility(inv.supplier);
      defaultFiscalResponsibility(inv.customer);
    },
  },
];
