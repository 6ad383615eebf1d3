import { describe, expect, it } from 'vitest';
import { applyNormRules } from '../../../src-main/core/gobl/addons/apply.ts';
import { arArcaV4Rules as rules } from '../../../src-main/core/gobl/addons/ar-arca-v4.ts';
import type { BuildContext } from '../../../src-main/core/gobl/engine/types.ts';

const ctx = { schema: '', rootType: 'bill.Invoice', regime: undefined, addons: [], doc: {}, now: new Date('2026-01-01T00:00:00Z') } as BuildContext;

describe('ar-arca-v4 tax combos', () => {
  it.each([
    [{ cat: 'VAT', key: 'zero', percent: '0%' }, '3'],
    [{ cat: 'VAT', rate: 'reduced' }, '4'],
    [{ cat: 'VAT', rate: 'general' }, '5'],
    [{ cat: 'VAT', rate: 'increased' }, '6'],
  ])('maps %j to ar-arca-vat-rate %s', (combo, code) => {
    expect(applyNormRules(rules, 'tax.Combo', { ...combo }, ctx).ext).toEqual({ 'ar-arca-vat-rate': code });
  });

  it('leaves a combo without a known rate alone', () => {
    expect(applyNormRules(rules, 'tax.Combo', { cat: 'VAT', key: 'exempt' }, ctx)).toEqual({ cat: 'VAT', key: 'exempt' });
  });
});

describe('ar-arca-v4 invoice', () => {
  it('gives a registered AR customer status 1, document type A and the goods concept', () => {
    const inv: any = {
      type: 'standard',
      customer: { tax_id: { country: 'AR', code: '30714589840' } },
      lines: [{ item: { key: 'goods' } }],
    };
    applyNormRules(rules, 'bill.Invoice', inv, ctx);
    expect(inv.customer.ext).toEqual({ 'ar-arca-vat-status': '1' });
    expect(inv.tax.ext).toEqual({ 'ar-arca-doc-type': '1', 'ar-arca-concept': '1' });
  });

  it('treats a customer without a tax ID as a final consumer (type B) and mixed lines as concept 3', () => {
    const inv: any = { type: 'credit-note', customer: { name: 'X' }, lines: [{ item: { key: 'goods' } }, { item: {} }] };
    applyNormRules(rules, 'bill.Invoice', inv, ctx);
    expect(inv.customer.ext).toEqual({ 'ar-arca-vat-status': '5' });
    expect(inv.tax.ext).toEqual({ 'ar-arca-doc-type': '8', 'ar-arca-concept': '3' });
  });

  it('keeps a chosen status and document type; the monotax tag picks type C', () => {
    const foreign: any = { type: 'standard', customer: { tax_id: { country: 'US' }, ext: { 'ar-arca-vat-status': '8' } } };
    applyNormRules(rules, 'bill.Invoice', foreign, ctx);
    expect(foreign.customer.ext['ar-arca-vat-status']).toBe('8');
    expect(foreign.tax.ext['ar-arca-doc-type']).toBe('6');

    const mono: any = { type: 'debit-note', $tags: ['monotax'], lines: [{ item: { key: 'services' } }] };
    applyNormRules(rules, 'bill.Invoice', mono, ctx);
    expect(mono.tax.ext).toEqual({ 'ar-arca-doc-type': '12', 'ar-arca-concept': '2' });

    const given: any = { type: 'standard', tax: { ext: { 'ar-arca-doc-type': '51' } } };
    applyNormRules(rules, 'bill.Invoice', given, ctx);
    expect(given.tax.ext['ar-arca-doc-type']).toBe('51');
  });
});
