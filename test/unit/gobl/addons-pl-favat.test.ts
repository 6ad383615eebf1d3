import { describe, expect, it } from 'vitest';
import { applyNormRules } from '../../../src-main/core/gobl/addons/apply.ts';
import { plFavatV3Rules as rules } from '../../../src-main/core/gobl/addons/pl-favat-v3.ts';
import type { BuildContext } from '../../../src-main/core/gobl/engine/types.ts';

const ctx = { schema: '', rootType: 'bill.Invoice', regime: undefined, addons: [], doc: {}, now: new Date('2026-01-01T00:00:00Z') } as BuildContext;
const run = (type: string, node: any) => applyNormRules(rules, type, node, ctx);

describe('pl-favat-v3 tax combos', () => {
  it.each([
    [{ cat: 'VAT', key: 'standard', rate: 'general' }, '1'],
    [{ cat: 'VAT', key: 'standard', rate: 'reduced' }, '2'],
    [{ cat: 'VAT', key: 'standard', rate: 'super-reduced' }, '3'],
    [{ cat: 'VAT', key: 'zero' }, '6.1'],
    [{ cat: 'VAT', key: 'intra-community' }, '6.2'],
    [{ cat: 'VAT', key: 'export' }, '6.3'],
    [{ cat: 'VAT', key: 'exempt' }, '7'],
    [{ cat: 'VAT', key: 'outside-scope' }, '8'],
    [{ cat: 'VAT', key: 'reverse-charge' }, '9'],
    [{ cat: 'VAT', country: 'DE', key: 'standard', rate: 'general' }, '8'],
  ])('maps %j to pl-favat-tax-category %s', (combo, code) => {
    expect(run('tax.Combo', { ...combo }).ext).toEqual({ 'pl-favat-tax-category': code });
  });

  it('sets nothing for a combo without a key (GOBL adds "standard" only when calculating)', () => {
    expect(run('tax.Combo', { cat: 'VAT', rate: 'general' }).ext).toBeUndefined();
  });
});

describe('pl-favat-v3 invoice and payments', () => {
  it('flags self-billing and reverse charge from tags', () => {
    expect(run('bill.Invoice', { $tags: ['self-billed', 'reverse-charge'] }).tax.ext)
      .toEqual({ 'pl-favat-self-billing': '1', 'pl-favat-reverse-charge': '1' });
    expect(run('bill.Invoice', { $tags: ['simplified'] }).tax).toBeUndefined();
  });

  it('maps payment means on instructions and advances', () => {
    expect(run('pay.Instructions', { key: 'other+voucher' }).ext).toEqual({ 'pl-favat-payment-means': '3' });
    expect(run('pay.Record', { key: 'credit-transfer+sepa' }).ext).toEqual({ 'pl-favat-payment-means': '6' });
    expect(run('pay.Record', { key: 'other' }).ext).toBeUndefined();
  });
});
