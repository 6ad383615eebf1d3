import { describe, expect, it } from 'vitest';
import { applyNormRules } from '../../../src-main/core/gobl/addons/apply.ts';
import { esSiiV1Rules as rules } from '../../../src-main/core/gobl/addons/es-sii-v1.ts';
import type { BuildContext } from '../../../src-main/core/gobl/engine/types.ts';

const ctx = { schema: '', rootType: 'bill.Invoice', regime: undefined, addons: [], doc: {}, now: new Date('2026-01-01T00:00:00Z') } as BuildContext;
const run = (type: string, node: any) => applyNormRules(rules, type, node, ctx);

describe('es-sii-v1 tax combos', () => {
  it('gives a standard combo regime 01 and drops an exemption', () => {
    expect(run('tax.Combo', { cat: 'VAT', key: 'standard', rate: 'general', ext: { 'es-sii-exempt': 'E1' } }))
      .toEqual({ cat: 'VAT', key: 'standard', rate: 'general', ext: { 'es-sii-regime': '01' } });
    expect(run('tax.Combo', { cat: 'VAT', rate: 'general' }))
      .toEqual({ cat: 'VAT', key: 'standard', rate: 'general', ext: { 'es-sii-regime': '01' } });
  });

  it('derives keys from legacy codes and completes them', () => {
    expect(run('tax.Combo', { cat: 'VAT', ext: { 'es-sii-exempt': 'E3' } }))
      .toEqual({ cat: 'VAT', key: 'export', ext: { 'es-sii-exempt': 'E3', 'es-sii-regime': '02' } });
    expect(run('tax.Combo', { cat: 'IGIC', ext: { 'es-sii-outside-scope': 'other', 'es-sii-exempt': 'E1' } }))
      .toEqual({ cat: 'IGIC', key: 'outside-scope', ext: { 'es-sii-outside-scope': 'other', 'es-sii-regime': '01' } });
    expect(run('tax.Combo', { cat: 'VAT', key: 'intra-community' }).ext).toEqual({ 'es-sii-regime': '01', 'es-sii-exempt': 'E5' });
    expect(run('tax.Combo', { cat: 'VAT', key: 'exempt', ext: { 'es-sii-exempt': 'E2' } }).ext).toEqual({ 'es-sii-exempt': 'E1', 'es-sii-regime': '01' });
  });

  it('treats a foreign combo as outside scope by location', () => {
    expect(run('tax.Combo', { cat: 'VAT', country: 'FR', key: 'standard', ext: { 'es-sii-regime': '17', 'es-sii-exempt': 'E1' } }).ext)
      .toEqual({ 'es-sii-outside-scope': 'location', 'es-sii-regime': '17' });
  });

  it('ignores other categories', () => {
    expect(run('tax.Combo', { cat: 'IRPF', percent: '15%' })).toEqual({ cat: 'IRPF', percent: '15%' });
  });
});

describe('es-sii-v1 lines and invoice', () => {
  it('sets the product on the first VAT combo from the item key', () => {
    const line: any = { item: { key: 'services' }, taxes: [{ cat: 'IRPF' }, { cat: 'VAT', ext: { 'es-sii-regime': '01' } }] };
    run('bill.Line', line);
    expect(line.taxes[1].ext).toEqual({ 'es-sii-regime': '01', 'es-sii-product': 'services' });
    expect(line.taxes[0].ext).toBeUndefined();
  });

  it('marks credit notes as corrections by differences with document type R1', () => {
    const inv: any = { type: 'credit-note' };
    run('bill.Invoice', inv);
    expect(inv.tax.ext).toEqual({ 'es-sii-correction-type': 'I', 'es-sii-doc-type': 'R1' });
    const kept: any = { type: 'corrective', tax: { ext: { 'es-sii-doc-type': 'R4' } } };
    run('bill.Invoice', kept);
    expect(kept.tax.ext).toEqual({ 'es-sii-doc-type': 'R4', 'es-sii-correction-type': 'S' });
  });

  it('flags third-party issuing and identifies foreign customers by their first identity', () => {
    const inv: any = {
      type: 'standard',
      $tags: ['self-billed'],
      customer: { name: 'X', identities: [{ key: 'passport', code: 'P1' }, { key: 'other', code: 'O' }] },
    };
    run('bill.Invoice', inv);
    expect(inv.tax.ext).toEqual({ 'es-sii-third-party-issuer': 'S' });
    expect(inv.customer.identities[0].ext).toEqual({ 'es-sii-identity-type': '03' });
    expect(inv.customer.identities[1].ext).toBeUndefined();
  });

  it('leaves a standard invoice without tax and a Spanish customer untouched', () => {
    const inv: any = { type: 'standard', customer: { tax_id: { country: 'ES', code: 'B1' }, identities: [{ key: 'passport' }] } };
    run('bill.Invoice', inv);
    expect(inv.tax).toBeUndefined();
    expect(inv.customer.identities[0].ext).toBeUndefined();
  });
});
