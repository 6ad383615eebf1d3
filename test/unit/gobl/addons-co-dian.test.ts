import { describe, expect, it } from 'vitest';
import { applyNormRules } from '../../../src-main/core/gobl/addons/apply.ts';
import { coDianV2Rules as rules } from '../../../src-main/core/gobl/addons/co-dian-v2.ts';
import type { BuildContext } from '../../../src-main/core/gobl/engine/types.ts';

const ctx = { schema: '', rootType: 'bill.Invoice', regime: undefined, addons: [], doc: {}, now: new Date('2026-01-01T00:00:00Z') } as BuildContext;

describe('co-dian-v2 invoice', () => {
  it('defaults Colombian parties to fiscal responsibility R-99-PN, keeping a given one', () => {
    const inv: any = {
      supplier: { tax_id: { country: 'CO', code: '9014514812' }, ext: { 'co-dian-municipality': '11001' } },
      customer: { tax_id: { country: 'CO' }, ext: { 'co-dian-fiscal-responsibility': 'O-13' } },
    };
    applyNormRules(rules, 'bill.Invoice', inv, ctx);
    expect(inv.supplier.ext).toEqual({ 'co-dian-municipality': '11001', 'co-dian-fiscal-responsibility': 'R-99-PN' });
    expect(inv.customer.ext).toEqual({ 'co-dian-fiscal-responsibility': 'O-13' });
  });

  it('leaves foreign parties and parties without a tax ID alone', () => {
    const inv: any = { supplier: { tax_id: { country: 'ES' } }, customer: { name: 'Juan' } };
    applyNormRules(rules, 'bill.Invoice', inv, ctx);
    expect(inv.supplier.ext).toBeUndefined();
    expect(inv.customer.ext).toBeUndefined();
  });
});
