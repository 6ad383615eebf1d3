import { describe, expect, it } from 'vitest';
import { applyNormRules } from '../../../src-main/core/gobl/addons/apply.ts';
import { esTbaiV1Rules as rules } from '../../../src-main/core/gobl/addons/es-tbai-v1.ts';
import type { BuildContext } from '../../../src-main/core/gobl/engine/types.ts';

const ctx = { schema: '', rootType: 'bill.Invoice', regime: undefined, addons: [], doc: {}, now: new Date('2026-01-01T00:00:00Z') } as BuildContext;
const run = (type: string, node: any) => applyNormRules(rules, type, node, ctx);

describe('es-tbai-v1 tax combos', () => {
  it.each([
    [{ cat: 'VAT', rate: 'general' }, { 'es-tbai-regime': '01' }],
    [{ cat: 'VAT', key: 'reverse-charge' }, { 'es-tbai-regime': '01', 'es-tbai-exemption': 'S2' }],
    [{ cat: 'VAT', key: 'exempt' }, { 'es-tbai-regime': '01', 'es-tbai-exemption': 'E1' }],
    [{ cat: 'VAT', key: 'export' }, { 'es-tbai-regime': '02', 'es-tbai-exemption': 'E2' }],
    [{ cat: 'VAT', key: 'outside-scope', ext: { 'es-tbai-exemption': 'VT' } }, { 'es-tbai-regime': '01', 'es-tbai-exemption': 'VT' }],
    [{ cat: 'VAT', rate: 'general+eqs' }, { 'es-tbai-regime': '51' }],
    [{ cat: 'VAT', rate: 'general', surcharge: '5.2%' }, { 'es-tbai-regime': '51' }],
    [{ cat: 'IGIC' }, { 'es-tbai-exemption': 'IE', 'es-tbai-regime': '08' }],
  ])('normalises %j', (combo, ext) => {
    expect(run('tax.Combo', { ...combo }).ext).toEqual(ext);
  });

  it('derives the key from an exemption code', () => {
    expect(run('tax.Combo', { cat: 'VAT', ext: { 'es-tbai-exemption': 'S2' } }).key).toBe('reverse-charge');
    expect(run('tax.Combo', { cat: 'VAT', ext: { 'es-tbai-exemption': 'RL' } }).key).toBe('outside-scope');
    expect(run('tax.Combo', { cat: 'VAT' }).key).toBe('standard');
  });

  it('marks foreign combos IE inside the EU and RL outside it', () => {
    expect(run('tax.Combo', { cat: 'VAT', country: 'FR' }).ext).toEqual({ 'es-tbai-exemption': 'IE', 'es-tbai-regime': '01' });
    expect(run('tax.Combo', { cat: 'VAT', country: 'US' }).ext).toEqual({ 'es-tbai-exemption': 'RL', 'es-tbai-regime': '01' });
  });
});

describe('es-tbai-v1 lines and invoice', () => {
  it('sets products: goods (keeping resale), services for services or no key', () => {
    const goods: any = { item: { key: 'goods' }, taxes: [{ cat: 'VAT', ext: { 'es-tbai-product': 'resale' } }] };
    run('bill.Line', goods);
    expect(goods.taxes[0].ext['es-tbai-product']).toBe('resale');
    const plain: any = { item: { name: 'x' }, taxes: [{ cat: 'VAT' }] };
    run('bill.Line', plain);
    expect(plain.taxes[0].ext).toEqual({ 'es-tbai-product': 'services' });
  });

  it('takes the region from the supplier address and flags simplified invoices', () => {
    const inv: any = { $tags: ['simplified'], supplier: { addresses: [{ region: 'Bizkaia' }] } };
    run('bill.Invoice', inv);
    expect(inv.tax.ext).toEqual({ 'es-tbai-region': 'BI', 'es-tbai-simplified': 'S' });
  });

  it('creates no tax when the region is unknown, and keeps a given region', () => {
    const none: any = { supplier: { addresses: [{ region: 'Madrid' }] } };
    run('bill.Invoice', none);
    expect(none.tax).toBeUndefined();
    const given: any = { tax: { ext: { 'es-tbai-region': 'SS' } }, supplier: { addresses: [{ region: 'Araba' }] } };
    run('bill.Invoice', given);
    expect(given.tax.ext).toEqual({ 'es-tbai-region': 'SS' });
  });
});
