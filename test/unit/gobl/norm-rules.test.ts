import { describe, expect, it } from 'vitest';
import type { BuildContext, Node } from '../../../src-main/core/gobl/engine/types.ts';
import { normalizeTree } from '../../../src-main/core/gobl/norm/engine.ts';
import { genericNormRules } from '../../../src-main/core/gobl/norm/generic.ts';
import { normalizeCode, normalizeStrictCode, normalizeString, normalizeAlphanumericalCode } from '../../../src-main/core/gobl/norm/strings.ts';

function normalized(doc: Node, rootType = 'bill.Invoice'): Node {
  const ctx: BuildContext = { schema: '', rootType, regime: undefined, addons: [], doc, now: new Date(0) };
  normalizeTree(doc, ctx, genericNormRules);
  return doc;
}

function combo(c: Node): Node {
  return normalized({ lines: [{ taxes: [c] }] }).lines[0].taxes[0];
}

describe('string and code cleaning', () => {
  it('cleans codes: NFC, non-printables out, trimmed', () => {
    expect(normalizeCode(' Cafe\u0301\u200b\u00a0\t')).toBe('Café');
    expect(normalized({ code: ' INV\u0000-1 ', series: '\ufeffA' })).toMatchObject({ code: 'INV-1', series: 'A' });
  });

  it('cleans strings: NUL removed and Go white space trimmed (not U+FEFF)', () => {
    expect(normalizeString(' a\u0000b\u00a0')).toBe('ab');
    expect(normalizeString('\ufeffx')).toBe('\ufeffx');
  });

  it('has Go-like strict codes', () => {
    expect(normalizeStrictCode(' AB--12..3 ?x')).toBe('AB-12.3 x');
    expect(normalizeAlphanumericalCode('ca-n.y')).toBe('CANY');
  });
});

describe('tax normalisers', () => {
  it('removes empty extension values', () => {
    expect(normalized({ tax: { ext: { 'es-a': '', 'es-b': 'X' } } }).tax.ext).toEqual({ 'es-b': 'X' });
  });

  it('maps VAT rate aliases to keys and rates', () => {
    expect(combo({ cat: 'VAT', rate: 'standard' })).toEqual({ cat: 'VAT', rate: 'general' });
    expect(combo({ cat: 'VAT', rate: 'standard+eqs' })).toEqual({ cat: 'VAT', rate: 'general+eqs' });
    expect(combo({ cat: 'VAT', rate: 'zero' })).toEqual({ cat: 'VAT', key: 'zero', percent: '0%' });
    expect(combo({ cat: 'VAT', rate: 'exempt', percent: '0%' })).toEqual({ cat: 'VAT', key: 'exempt', percent: '0%' });
    expect(combo({ cat: 'VAT', rate: 'exempt+reverse-charge', percent: '21%' })).toEqual({ cat: 'VAT', key: 'reverse-charge' });
    expect(combo({ cat: 'VAT', rate: 'exempt+export' })).toEqual({ cat: 'VAT', key: 'export' });
    expect(combo({ cat: 'VAT', rate: 'exempt+export+eea' })).toEqual({ cat: 'VAT', key: 'intra-community' });
    expect(combo({ cat: 'VAT', percent: '0.0%' })).toEqual({ cat: 'VAT', percent: '0.0%', key: 'zero' });
    expect(combo({ cat: 'VAT', key: 'zero' })).toEqual({ cat: 'VAT', key: 'zero', percent: '0%' });
    expect(combo({ cat: 'IRPF', rate: 'standard', percent: '0%' })).toEqual({ cat: 'IRPF', rate: 'standard', percent: '0%' });
  });

  it('cleans tax IDs of countries without a regime only', () => {
    const doc = normalized({ supplier: { tax_id: { country: 'JP', code: 'jp 12-34.5' } }, customer: { tax_id: { country: 'ES', code: 'es b-123' } } });
    expect(doc.supplier.tax_id.code).toBe('12345');
    expect(doc.customer.tax_id.code).toBe('es b-123');
  });
});

describe('org normalisers', () => {
  it('trims free text, drops zero UUIDs and cleans the address state', () => {
    const doc = normalized({ supplier: { uuid: '00000000-0000-0000-0000-000000000000', name: ' ACME\u0000 ', addresses: [{ street: ' Main ', state: 'n.y.' }], telephones: [{ num: ' 123 ' }] } });
    expect(doc.supplier).toEqual({ name: 'ACME', addresses: [{ street: 'Main', state: 'NY' }], telephones: [{ num: '123' }] });
  });

  it('splits Peppol inbox codes and moves e-mails and URLs', () => {
    const doc = normalized({
      customer: {
        inboxes: [
          { key: 'peppol', code: '0208:0735.123' },
          { key: 'peppol', scheme: '9920', code: '0208:1' },
          { code: 'billing@example.com' },
          { code: 'https://example.com/inbox' },
          { scheme: 'ab', code: ' X--1 ' },
        ],
      },
    });
    expect(doc.customer.inboxes).toEqual([
      { key: 'peppol', scheme: '0208', code: '0735.123' },
      { key: 'peppol', scheme: '9920', code: '0208:1' },
      { email: 'billing@example.com' },
      { url: 'https://example.com/inbox' },
      { scheme: 'AB', code: 'X-1' },
    ]);
  });
});

describe('bill normalisers', () => {
  it('defaults document types', () => {
    expect(normalized({}).type).toBe('standard');
    expect(normalized({ type: 'credit-note' }).type).toBe('credit-note');
    expect(normalized({}, 'bill.Order').type).toBe('purchase');
    expect(normalized({}, 'bill.Delivery').type).toBe('advice');
    expect(normalized({}, 'bill.Payment').type).toBe('receipt');
  });

  it('turns a negative price into a negative quantity, on lines and sub-lines', () => {
    const doc = normalized({ lines: [{ quantity: '2', item: { price: '-10.00' }, breakdown: [{ quantity: '1', item: { price: '-1.5' } }] }] });
    expect(doc.lines[0]).toMatchObject({ quantity: '-2', item: { price: '10.00' }, breakdown: [{ quantity: '-1', item: { price: '1.5' } }] });
    expect(normalized({ lines: [{ quantity: '2', item: { price: '-0.00' } }] }).lines[0]).toEqual({ quantity: '2', item: { price: '-0.00' } });
  });

  it('drops empty line discounts, charges and sub-lines, and nil combos', () => {
    const doc = normalized({
      lines: [{
        quantity: '1',
        discounts: [{}, { percent: '0%', amount: '0.00', ext: { 'x-y': '' } }, { reason: 'Promo' }],
        charges: [{ base: '10' }],
        breakdown: [{}, null],
        taxes: [null],
      }],
      discounts: [{ amount: '1', taxes: [null] }],
    });
    expect(doc.lines[0]).toEqual({ quantity: '1', discounts: [{ reason: 'Promo' }] });
    expect(doc.discounts[0]).toEqual({ amount: '1' });
  });

  it('renames legacy rounding rules', () => {
    expect(normalized({ tax: { rounding: 'sum-then-round' } }).tax.rounding).toBe('precise');
    expect(normalized({ tax: { rounding: 'round-then-sum' } }).tax.rounding).toBe('currency');
  });
});

describe('pay normalisers', () => {
  it('cleans record, instruction and terms text', () => {
    const doc = normalized({ payment: { advances: [{ description: ' Deposit ', ref: ' R ' }], instructions: { detail: ' d ', notes: 'n ' }, terms: { notes: ' t' } } });
    expect(doc.payment).toEqual({ advances: [{ description: 'Deposit', ref: 'R' }], instructions: { detail: 'd', notes: 'n' }, terms: { notes: 't' } });
  });
});
