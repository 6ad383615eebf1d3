import { describe, expect, it } from 'vitest';
import { applyNormRules } from '../../../src-main/core/gobl/addons/apply.ts';
import { itSdiV1Rules as rules } from '../../../src-main/core/gobl/addons/it-sdi-v1.ts';
import type { BuildContext } from '../../../src-main/core/gobl/engine/types.ts';

const ctx = { schema: '', rootType: 'bill.Invoice', regime: undefined, addons: [], doc: {}, now: new Date('2026-01-01T00:00:00Z') } as BuildContext;
const run = (type: string, node: any) => applyNormRules(rules, type, node, ctx);

describe('it-sdi-v1 tax combos', () => {
  it.each([
    [{ cat: 'VAT', key: 'zero' }, { 'it-sdi-exempt': 'N1' }],
    [{ cat: 'VAT', key: 'exempt' }, { 'it-sdi-exempt': 'N4' }],
    [{ cat: 'VAT', key: 'reverse-charge' }, { 'it-sdi-exempt': 'N6.9' }],
    [{ cat: 'VAT', key: 'export', ext: { 'it-sdi-exempt': 'N3.4' } }, { 'it-sdi-exempt': 'N3.4' }],
    [{ cat: 'VAT', key: 'intra-community' }, { 'it-sdi-exempt': 'N3.2' }],
    [{ cat: 'VAT', country: 'FR' }, { 'it-sdi-exempt': 'N7' }],
    [{ cat: 'VAT', country: 'US' }, { 'it-sdi-exempt': 'N2.1' }],
  ])('normalises %j', (combo, ext) => {
    expect(run('tax.Combo', { ...combo }).ext).toEqual(ext);
  });

  it('re-keys exempt combos from their code; N1 becomes a 0% zero combo', () => {
    expect(run('tax.Combo', { cat: 'VAT', key: 'exempt', ext: { 'it-sdi-exempt': 'N2.2' } })).toEqual({ cat: 'VAT', key: 'outside-scope', ext: { 'it-sdi-exempt': 'N2.2' } });
    expect(run('tax.Combo', { cat: 'VAT', ext: { 'it-sdi-exempt': 'N1' } })).toEqual({ cat: 'VAT', key: 'zero', percent: '0%', ext: { 'it-sdi-exempt': 'N1' } });
    expect(run('tax.Combo', { cat: 'VAT', rate: 'general', ext: { 'it-sdi-exempt': 'N6.3' } }).key).toBe('reverse-charge');
  });

  it('makes a combo without key or code standard, which drops any code', () => {
    expect(run('tax.Combo', { cat: 'VAT', rate: 'general' })).toEqual({ cat: 'VAT', key: 'standard', rate: 'general' });
    expect(run('tax.Combo', { cat: 'VAT', key: 'standard', ext: { 'it-sdi-exempt': 'N4' } }).ext).toBeUndefined();
  });
});

describe('it-sdi-v1 supplier, addresses and payments', () => {
  it('defaults the fiscal regime to RF01 and strips +39 from Italian phone numbers', () => {
    const inv: any = { supplier: { tax_id: { country: 'IT' }, telephones: [{ num: '+390612345678' }, { num: '0612' }] } };
    run('bill.Invoice', inv);
    expect(inv.supplier.ext).toEqual({ 'it-sdi-fiscal-regime': 'RF01' });
    expect(inv.supplier.telephones).toEqual([{ num: '0612345678' }, { num: '0612' }]);
    const foreign: any = { supplier: { tax_id: { country: 'ES' }, ext: { 'it-sdi-fiscal-regime': 'RF02' }, telephones: [{ num: '+39123' }] } };
    run('bill.Invoice', foreign);
    expect(foreign.supplier.ext['it-sdi-fiscal-regime']).toBe('RF02');
    expect(foreign.supplier.telephones[0].num).toBe('+39123');
  });

  it('pads short numeric Italian postcodes to five digits', () => {
    expect(run('org.Address', { country: 'IT', code: '100' }).code).toBe('00100');
    expect(run('org.Address', { country: 'IT', code: '10A' }).code).toBe('10A');
    expect(run('org.Address', { country: 'FR', code: '100' }).code).toBe('100');
  });

  it('maps payment means with sub-key fallback on instructions and advances', () => {
    expect(run('pay.Instructions', { key: 'online+pagopa' }).ext).toEqual({ 'it-sdi-payment-means': 'MP23' });
    expect(run('pay.Instructions', { key: 'direct-debit+other' }).ext).toEqual({ 'it-sdi-payment-means': 'MP16' });
    expect(run('pay.Record', { key: 'cash' }).ext).toEqual({ 'it-sdi-payment-means': 'MP01' });
  });
});
