import { describe, expect, it } from 'vitest';
import { applyNormRules } from '../../../src-main/core/gobl/addons/apply.ts';
import { euEn16931V2017Rules as rules } from '../../../src-main/core/gobl/addons/eu-en16931-v2017.ts';
import type { BuildContext } from '../../../src-main/core/gobl/engine/types.ts';

const ctx = { schema: '', rootType: 'bill.Invoice', regime: undefined, addons: [], doc: {}, now: new Date('2026-01-01T00:00:00Z') } as BuildContext;
const run = (type: string, node: any) => applyNormRules(rules, type, node, ctx);

describe('eu-en16931-v2017 tax combos and notes', () => {
  it.each([
    ['standard', 'S'], ['zero', 'Z'], ['exempt', 'E'], ['reverse-charge', 'AE'],
    ['intra-community', 'K'], ['export', 'G'], ['outside-scope', 'O'],
  ])('maps VAT key %s to untdid-tax-category %s', (key, code) => {
    expect(run('tax.Combo', { cat: 'VAT', key }).ext).toEqual({ 'untdid-tax-category': code });
  });

  it('derives a missing VAT key from the category code, or standard', () => {
    expect(run('tax.Combo', { cat: 'VAT', ext: { 'untdid-tax-category': 'AE' } })).toEqual({ cat: 'VAT', key: 'reverse-charge', ext: { 'untdid-tax-category': 'AE' } });
    expect(run('tax.Combo', { cat: 'VAT', rate: 'general' })).toEqual({ cat: 'VAT', key: 'standard', rate: 'general', ext: { 'untdid-tax-category': 'S' } });
  });

  it('uses L for IGIC, M for IPSI and O for any other category; an unknown VAT key loses the code', () => {
    expect(run('tax.Combo', { cat: 'IGIC' }).ext).toEqual({ 'untdid-tax-category': 'L' });
    expect(run('tax.Combo', { cat: 'IPSI' }).ext).toEqual({ 'untdid-tax-category': 'M' });
    expect(run('tax.Combo', { cat: 'IRPF', ext: { 'untdid-tax-category': 'S' } }).ext).toEqual({ 'untdid-tax-category': 'O' });
    expect(run('tax.Combo', { cat: 'VAT', key: 'odd', ext: { 'untdid-tax-category': 'S' } }).ext).toBeUndefined();
  });

  it('maps VAT tax notes both ways', () => {
    expect(run('tax.Note', { cat: 'VAT', key: 'exempt', text: 'x' }).ext).toEqual({ 'untdid-tax-category': 'E' });
    expect(run('tax.Note', { cat: 'VAT', text: 'x', ext: { 'untdid-tax-category': 'K' } }).key).toBe('intra-community');
    expect(run('tax.Note', { cat: 'IGIC', key: 'exempt', text: 'x' }).ext).toBeUndefined();
  });
});

describe('eu-en16931-v2017 payment, discounts, charges, notes, items and identities', () => {
  it('maps payment means keys with sub-key fallback', () => {
    expect(run('pay.Instructions', { key: 'credit-transfer+sepa' }).ext).toEqual({ 'untdid-payment-means': '58' });
    expect(run('pay.Instructions', { key: 'card+credit' }).ext).toEqual({ 'untdid-payment-means': '48' });
    expect(run('pay.Instructions', { key: 'custom' }).ext).toBeUndefined();
  });

  it('maps discount, charge and note keys exactly', () => {
    expect(run('bill.Discount', { key: 'sample' }).ext).toEqual({ 'untdid-allowance': '67' });
    expect(run('bill.LineDiscount', { key: 'yearly-turnover' }).ext).toEqual({ 'untdid-allowance': '105' });
    expect(run('bill.Charge', { key: 'delivery' }).ext).toEqual({ 'untdid-charge': 'DL' });
    expect(run('bill.LineCharge', { key: 'tax+extra' }).ext).toBeUndefined();
    expect(run('org.Note', { key: 'general', text: 'x' }).ext).toEqual({ 'untdid-text-subject': 'AAI' });
  });

  it('defaults the item unit and sets ISO 6523 schemes on identities', () => {
    expect(run('org.Item', { name: 'x' }).unit).toBe('one');
    expect(run('org.Item', { name: 'x', unit: 'h' }).unit).toBe('h');
    expect(run('org.Identity', { key: 'gln', code: '1' }).ext).toEqual({ 'iso-scheme-id': '0088' });
    expect(run('org.Identity', { type: 'SIRET', code: '1' }).ext).toEqual({ 'iso-scheme-id': '0009' });
    expect(run('org.Identity', { type: 'NIF', code: '1' }).ext).toBeUndefined();
  });

  it('creates an empty invoice tax object', () => {
    expect(run('bill.Invoice', {}).tax).toEqual({});
  });
});

describe('eu-en16931-v2017 inboxes and endpoints', () => {
  it('splits a scheme:code inbox code', () => {
    expect(run('org.Inbox', { key: 'peppol', code: '0208:0735585741' })).toEqual({ key: 'peppol', code: '0735585741', scheme: '0208' });
    expect(run('org.Inbox', { key: 'email', code: 'a@b.c' })).toEqual({ key: 'email', code: 'a@b.c' });
  });

  it('adds a Peppol endpoint from the first complete peppol inbox', () => {
    const party: any = { name: 'X', inboxes: [{ key: 'email', code: 'x' }, { key: 'peppol', label: 'Main', scheme: '0088', code: '123' }] };
    run('org.Party', party);
    expect(party.endpoints).toEqual([{ label: 'Main', uri: 'iso6523-actorid-upis::0088:123' }]);
  });

  it('does not add a second Peppol endpoint', () => {
    const party: any = { inboxes: [{ key: 'peppol', scheme: '0088', code: '123' }], endpoints: [{ uri: 'ISO6523-ACTORID-UPIS::0088:999' }] };
    run('org.Party', party);
    expect(party.endpoints).toHaveLength(1);
  });
});
