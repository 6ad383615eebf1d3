import { describe, expect, it } from 'vitest';
import { applyNormRules } from '../../../src-main/core/gobl/addons/apply.ts';
import { grMydataV1Rules as rules } from '../../../src-main/core/gobl/addons/gr-mydata-v1.ts';
import type { BuildContext } from '../../../src-main/core/gobl/engine/types.ts';

const ctx = { schema: '', rootType: 'bill.Invoice', regime: undefined, addons: [], doc: {}, now: new Date('2026-01-01T00:00:00Z') } as BuildContext;
const run = (type: string, node: any) => applyNormRules(rules, type, node, ctx);

describe('gr-mydata-v1 tax combos', () => {
  it.each([
    [{ cat: 'VAT', key: 'standard', rate: 'general' }, { 'gr-mydata-vat-rate': '1' }],
    [{ cat: 'VAT', key: 'standard', rate: 'reduced+island' }, { 'gr-mydata-vat-rate': '5' }],
    [{ cat: 'VAT', key: 'exempt' }, { 'gr-mydata-exemption': '7', 'gr-mydata-vat-rate': '7' }],
    [{ cat: 'VAT', key: 'exempt', ext: { 'gr-mydata-exemption': '26' } }, { 'gr-mydata-exemption': '26', 'gr-mydata-vat-rate': '7' }],
    [{ cat: 'VAT', key: 'intra-community' }, { 'gr-mydata-exemption': '14', 'gr-mydata-vat-rate': '7' }],
    [{ cat: 'VAT', key: 'reverse-charge' }, { 'gr-mydata-exemption': '16', 'gr-mydata-vat-rate': '7' }],
    [{ cat: 'VAT', key: 'outside-scope' }, { 'gr-mydata-exemption': '1', 'gr-mydata-vat-rate': '7' }],
  ])('normalises %j', (combo, ext) => {
    expect(run('tax.Combo', { ...combo }).ext).toEqual(ext);
  });

  it('derives the key from an exemption code and drops exemptions from standard combos', () => {
    expect(run('tax.Combo', { cat: 'VAT', ext: { 'gr-mydata-exemption': '8' } }).key).toBe('export');
    expect(run('tax.Combo', { cat: 'VAT', rate: 'general' })).toEqual({ cat: 'VAT', key: 'standard', rate: 'general', ext: { 'gr-mydata-vat-rate': '1' } });
  });

  it('makes foreign combos outside scope: 30 in the EU, 29 outside', () => {
    expect(run('tax.Combo', { cat: 'VAT', country: 'DE', rate: 'general' })).toEqual({ cat: 'VAT', country: 'DE', key: 'outside-scope', rate: 'general', ext: { 'gr-mydata-exemption': '30', 'gr-mydata-vat-rate': '7' } });
    expect(run('tax.Combo', { cat: 'VAT', country: 'US' }).ext['gr-mydata-exemption']).toBe('29');
    expect(run('tax.Combo', { cat: 'VAT', country: 'EL', key: 'standard', rate: 'general' }).ext).toEqual({ 'gr-mydata-vat-rate': '1' });
  });
});

describe('gr-mydata-v1 payments and charges', () => {
  it('sets payment means on instructions and advances', () => {
    expect(run('pay.Instructions', { key: 'credit-transfer+foreign' }).ext).toEqual({ 'gr-mydata-payment-means': '2' });
    expect(run('pay.Record', { key: 'card', amount: '10.00' }).ext).toEqual({ 'gr-mydata-payment-means': '7' });
    expect(run('pay.Instructions', { key: 'direct-debit' }).ext).toBeUndefined();
  });

  it('sets the charge tax type from its key or its specific code', () => {
    expect(run('bill.Charge', { key: 'stamp-duty' }).ext).toEqual({ 'gr-mydata-tax-type': '4' });
    expect(run('bill.Charge', { ext: { 'gr-mydata-fee': '1' } }).ext).toEqual({ 'gr-mydata-fee': '1', 'gr-mydata-tax-type': '2' });
    expect(run('bill.Charge', { key: 'tax', ext: { 'gr-mydata-fee': '1' } }).ext['gr-mydata-tax-type']).toBe('3');
  });
});
