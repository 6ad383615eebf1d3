import { describe, expect, it } from 'vitest';
import { applyNormRules } from '../../../src-main/core/gobl/addons/apply.ts';
import { itTicketV1Rules as rules } from '../../../src-main/core/gobl/addons/it-ticket-v1.ts';
import type { BuildContext } from '../../../src-main/core/gobl/engine/types.ts';

const ctx = { schema: '', rootType: 'bill.Invoice', regime: undefined, addons: [], doc: {}, now: new Date('2026-01-01T00:00:00Z') } as BuildContext;
const run = (type: string, node: any) => applyNormRules(rules, type, node, ctx);

describe('it-ticket-v1', () => {
  it('makes prices include VAT unless stated and cleans the lottery code', () => {
    expect(run('bill.Invoice', {}).tax).toEqual({ prices_include: 'VAT' });
    const inv: any = { tax: { prices_include: 'IGIC', ext: { 'it-ticket-lottery': ' ab-12 cd ' } } };
    run('bill.Invoice', inv);
    expect(inv.tax).toEqual({ prices_include: 'IGIC', ext: { 'it-ticket-lottery': 'AB12CD' } });
  });

  it('defaults items to services', () => {
    expect(run('org.Item', { name: 'x' }).ext).toEqual({ 'it-ticket-product': 'services' });
    expect(run('org.Item', { name: 'x', ext: { 'it-ticket-product': 'goods' } }).ext).toEqual({ 'it-ticket-product': 'goods' });
  });

  it('sets exemption codes from the key and keys (without rate) from codes', () => {
    expect(run('tax.Combo', { cat: 'VAT', key: 'intra-community' }).ext).toEqual({ 'it-ticket-exempt': 'N3' });
    expect(run('tax.Combo', { cat: 'VAT', key: 'exempt', ext: { 'it-ticket-exempt': 'N5' } }).ext).toEqual({ 'it-ticket-exempt': 'N5' });
    expect(run('tax.Combo', { cat: 'VAT', rate: 'general', ext: { 'it-ticket-exempt': 'N6' } })).toEqual({ cat: 'VAT', key: 'reverse-charge', ext: { 'it-ticket-exempt': 'N6' } });
    expect(run('tax.Combo', { cat: 'VAT', rate: 'general' })).toEqual({ cat: 'VAT', key: 'standard', rate: 'general' });
    expect(run('tax.Combo', { cat: 'VAT', country: 'DE' }).ext).toEqual({ 'it-ticket-exempt': 'N2' });
  });
});
