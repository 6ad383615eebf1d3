import { describe, expect, it } from 'vitest';
import { BuildError } from '../../../src-main/core/gobl/engine/types.ts';
import { canonicalAmount, canonicalPercentage } from '../../../src-main/core/gobl/shape/input-numbers.ts';
import { parseJsonByScanner } from '../../../src-main/core/gobl/shape/json-text.ts';
import { parseAsGoblYaml, parseJsonText, prepareInput, RawNumber } from '../../../src-main/core/gobl/shape/parse.ts';

const INVOICE = 'https://gobl.org/draft-0/bill/invoice';

function faultsOf(fn: () => unknown): Array<{ path: string; message: string }> {
  try {
    fn();
  } catch (err) {
    if (err instanceof BuildError) return err.faults.map((f) => ({ path: f.paths[0], message: f.message }));
    throw err;
  }
  throw new Error('expected a BuildError');
}

describe('parseJsonText', () => {
  it.each([['JSON.parse with source text', parseJsonText], ['the fallback scanner', parseJsonByScanner]])('keeps number text with %s', (_name, parse) => {
    const value = parse('{"a": 10.50, "b": [1e5, 12345678901234567890, 3, -0.5], "c": "x\\u00e9", "d": null, "e": true}') as any;
    expect(value.a).toBeInstanceOf(RawNumber);
    expect(value.a.text).toBe('10.50');
    expect(value.b[0].text).toBe('1e5');
    expect(value.b[1].text).toBe('12345678901234567890');
    expect(value.b.slice(2)).toEqual([3, -0.5]);
    expect(value.c).toBe('xé');
    expect(value.d).toBeNull();
    expect(value.e).toBe(true);
  });

  it('refuses invalid JSON', () => {
    expect(() => parseJsonByScanner('{"a": }')).toThrow(SyntaxError);
    expect(() => parseJsonByScanner('[1] 2')).toThrow(SyntaxError);
  });
});

describe('amounts and percentages as GOBL reads them', () => {
  it('keeps the written precision and canonicalises', () => {
    expect(canonicalAmount('10.50')).toBe('10.50');
    expect(canonicalAmount('+007')).toBe('7');
    expect(canonicalAmount('-0.00')).toBe('0.00');
    expect(canonicalAmount('5.')).toBe('5');
    expect(canonicalAmount('1.12345678901234567890')).toBe('1.12345678901234567');
    expect(canonicalPercentage('21.0%')).toBe('21.0%');
    expect(canonicalPercentage('0.21')).toBe('21%');
    expect(canonicalPercentage('0.215')).toBe('21.5%');
    expect(canonicalPercentage('21')).toBe('2100%');
  });

  it('refuses exponents, NaN and more than 18 integer digits', () => {
    expect(() => canonicalAmount('1e5')).toThrow(/invalid major number/);
    expect(() => canonicalAmount('NaN')).toThrow();
    expect(() => canonicalAmount('1.2.3')).toThrow(/decimal separators/);
    expect(() => canonicalAmount('1234567890123456789')).toThrow(/too many digits/);
  });
});

describe('prepareInput', () => {
  it('turns JSON numbers in amount fields into GOBL strings, keeping 10.50', () => {
    const input = parseJsonText('{"$schema": "https://gobl.org/draft-0/bill/invoice", "lines": [{"quantity": 10.50, "item": {"name": "a", "price": 3}, "taxes": [{"cat": "VAT", "percent": 0.21}]}]}') as any;
    const doc = prepareInput(input, 'bill.Invoice');
    expect(doc.lines[0]).toEqual({ quantity: '10.50', item: { name: 'a', price: '3' }, taxes: [{ cat: 'VAT', percent: '21%' }] });
  });

  it('survives structuredClone of RawNumbers', () => {
    const input = structuredClone(parseJsonText('{"lines": [{"quantity": 1.50}]}') as any);
    expect(prepareInput(input, 'bill.Invoice').lines[0].quantity).toBe('1.50');
  });

  it('refuses 1e5, "NaN" and over-long amounts with the JSON path and the reason', () => {
    const input = parseJsonText('{"lines": [{"quantity": 1e5}, {"quantity": "NaN", "item": {"price": "12345678901234567890"}}], "totals": {"sum": true}}') as any;
    const faults = faultsOf(() => prepareInput(input, 'bill.Invoice'));
    expect(faults.map((f) => f.path)).toEqual(['$.doc.lines[0].quantity', '$.doc.lines[1].quantity', '$.doc.lines[1].item.price', '$.doc.totals.sum']);
    expect(faults[0].message).toMatch(/1e5.*exponent/);
    expect(faults[1].message).toMatch(/NaN/);
    expect(faults[2].message).toMatch(/too many digits/);
    expect(faults[3].message).toMatch(/boolean/);
  });

  it('refuses type mismatches as Go unmarshalling does', () => {
    const faults = faultsOf(() => prepareInput({ code: 12, lines: {}, supplier: 'x', issue_date: '2024-02-30' } as any, 'bill.Invoice'));
    expect(faults.map((f) => f.path)).toEqual(['$.doc.code', '$.doc.lines', '$.doc.supplier', '$.doc.issue_date']);
    expect(faults[0].message).toMatch(/cannot unmarshal number/);
  });

  it('drops unknown fields and matches field names case-insensitively', () => {
    const doc = prepareInput({ $schema: INVOICE, Currency: 'EUR', region: 'ES', supplier: { Name: 'S', addresses: [{ number: '4', 'country"': 'DE', num: '5' }] } }, 'bill.Invoice');
    expect(doc).toEqual({ $schema: INVOICE, currency: 'EUR', supplier: { name: 'S', addresses: [{ num: '5' }] } });
  });

  it('takes $regime from the supplier tax country when GOBL has that regime', () => {
    expect(prepareInput({ supplier: { tax_id: { country: 'ES' } } }, 'bill.Invoice').$regime).toBe('ES');
    expect(prepareInput({ supplier: { tax_id: { country: 'ZZ' } } }, 'bill.Invoice').$regime).toBeUndefined();
    expect(prepareInput({ $regime: 'PT', supplier: { tax_id: { country: 'ES' } } }, 'bill.Invoice').$regime).toBe('PT');
  });

  it('migrates tax.tags to $tags', () => {
    const doc = prepareInput({ $tags: ['partial'], tax: { tags: ['simplified'], prices_include: 'VAT' } }, 'bill.Invoice');
    expect(doc.$tags).toEqual(['simplified']);
    expect(doc.tax).toEqual({ prices_include: 'VAT' });
  });

  it('migrates payment terms detail into notes', () => {
    expect(prepareInput({ payment: { terms: { detail: 'Pay soon' } } }, 'bill.Invoice').payment.terms).toEqual({ notes: 'Pay soon' });
    expect(prepareInput({ payment: { terms: { notes: ' Net 30. ', detail: 'Pay soon' } } }, 'bill.Invoice').payment.terms).toEqual({ notes: 'Net 30. Pay soon' });
  });

  it('migrates advances[].desc to description', () => {
    const doc = prepareInput({ payment: { advances: [{ desc: 'Deposit', amount: '10' }, { desc: 'x', description: 'kept?' }] } }, 'bill.Invoice');
    expect(doc.payment.advances).toEqual([{ description: 'Deposit', amount: '10' }, { description: 'x' }]);
  });

  it('migrates the old combo tags to the rate', () => {
    const doc = prepareInput({ lines: [{ taxes: [{ cat: 'VAT', tags: ['reduced'] }, { cat: 'VAT', rate: 'general', tags: ['x'] }] }] }, 'bill.Invoice');
    expect(doc.lines[0].taxes).toEqual([{ cat: 'VAT', rate: 'reduced' }, { cat: 'VAT', rate: 'general' }]);
  });

  it('migrates the old payment method into methods, and online name/addr', () => {
    const doc = prepareInput({
      $schema: 'https://gobl.org/draft-0/bill/payment',
      method: { key: 'online', detail: 'Card', ref: 'R1', credit_transfer: [{ iban: 'ES1' }, { iban: 'ES2' }], online: [{ name: 'Shop', addr: 'https://x.test' }] },
    }, 'bill.Payment');
    expect(doc.methods).toEqual([{
      key: 'online', ref: 'R1', description: 'Card', credit_transfer: { iban: 'ES1' }, online: [{ label: 'Shop', url: 'https://x.test' }],
    }]);
    expect(doc.method).toBeUndefined();
    const kept = prepareInput({ methods: [{ key: 'cash' }], method: { key: 'card' } }, 'bill.Payment');
    expect(kept.methods).toEqual([{ key: 'cash' }]);
  });

  it('reads empty dates and times as GOBL zero values', () => {
    const doc = prepareInput({ issue_date: '', op_date: '', issue_time: '' }, 'bill.Invoice');
    expect(doc).toEqual({ op_date: '0000-00-00', issue_time: '00:00:00' });
  });

  it('leaves documents under an unknown $schema untouched', () => {
    const complement = { $schema: 'https://example.com/other', z: 1, a: 2 };
    const doc = prepareInput({ complements: [complement] }, 'bill.Invoice');
    expect(doc.complements[0]).toEqual(complement);
  });
});

describe('parseAsGoblYaml', () => {
  it('reads numbers as floats and sorts keys, like GOBL example sources', () => {
    expect(JSON.stringify(parseAsGoblYaml('{"b": {"z": 20.0, "a": [ {"y": 1, "x": 2} ]}, "a": 1}'))).toBe('{"a":1,"b":{"a":[{"x":2,"y":1}],"z":20}}');
  });
});
