import { describe, expect, it } from 'vitest';
import { applyNormRules } from '../../../src-main/core/gobl/addons/apply.ts';
import { esVerifactuV1Rules as rules } from '../../../src-main/core/gobl/addons/es-verifactu-v1.ts';
import type { BuildContext } from '../../../src-main/core/gobl/engine/types.ts';

const ctx = { schema: '', rootType: 'bill.Invoice', regime: undefined, addons: [], doc: {}, now: new Date('2026-01-01T00:00:00Z') } as BuildContext;
const run = (type: string, node: any) => applyNormRules(rules, type, node, ctx);

describe('es-verifactu-v1 tax combos', () => {
  it.each([
    [{ cat: 'VAT', rate: 'general' }, { 'es-verifactu-regime': '01', 'es-verifactu-op-class': 'S1' }],
    [{ cat: 'VAT', rate: 'general', surcharge: '5.2%' }, { 'es-verifactu-regime': '18', 'es-verifactu-op-class': 'S1' }],
    [{ cat: 'VAT', key: 'reverse-charge' }, { 'es-verifactu-regime': '01', 'es-verifactu-op-class': 'S2' }],
    [{ cat: 'VAT', key: 'outside-scope', ext: { 'es-verifactu-op-class': 'N1' } }, { 'es-verifactu-regime': '01', 'es-verifactu-op-class': 'N1' }],
    [{ cat: 'VAT', key: 'exempt', ext: { 'es-verifactu-op-class': 'S1' } }, { 'es-verifactu-regime': '01', 'es-verifactu-exempt': 'E1' }],
    [{ cat: 'IGIC', key: 'export' }, { 'es-verifactu-regime': '02', 'es-verifactu-exempt': 'E2' }],
    [{ cat: 'VAT', country: 'PT', key: 'standard', ext: { 'es-verifactu-exempt': 'E1' } }, { 'es-verifactu-op-class': 'N2', 'es-verifactu-regime': '01' }],
  ])('normalises %j', (combo, ext) => {
    expect(run('tax.Combo', { ...combo }).ext).toEqual(ext);
  });

  it('derives the key from op class codes over exemption codes', () => {
    expect(run('tax.Combo', { cat: 'VAT', ext: { 'es-verifactu-exempt': 'E5', 'es-verifactu-op-class': 'N2' } }).key).toBe('outside-scope');
    expect(run('tax.Combo', { cat: 'VAT', ext: { 'es-verifactu-exempt': 'E5' } }).key).toBe('intra-community');
  });
});

describe('es-verifactu-v1 invoice', () => {
  it('sets correction and document types for corrective invoices', () => {
    const inv: any = { type: 'debit-note', tax: { ext: { 'es-verifactu-doc-type': 'F1' } } };
    run('bill.Invoice', inv);
    expect(inv.tax.ext).toEqual({ 'es-verifactu-doc-type': 'R1', 'es-verifactu-correction-type': 'I' });
  });

  it('sets the issuer type: D when self-billed, T when a third party issues it', () => {
    const self: any = { type: 'standard', $tags: ['self-billed'] };
    run('bill.Invoice', self);
    expect(self.tax.ext).toEqual({ 'es-verifactu-issuer-type': 'D' });
    const third: any = { type: 'standard', ordering: { issuer: { name: 'Agency' } } };
    run('bill.Invoice', third);
    expect(third.tax.ext).toEqual({ 'es-verifactu-issuer-type': 'T' });
  });

  it('identifies a customer without a Spanish tax ID code by its first identity', () => {
    const inv: any = { type: 'standard', customer: { tax_id: { country: 'ES' }, identities: [{ key: 'resident', code: 'X' }] } };
    run('bill.Invoice', inv);
    expect(inv.customer.identities[0].ext).toEqual({ 'es-verifactu-identity-type': '05' });
  });
});
