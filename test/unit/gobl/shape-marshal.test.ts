import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { compareGoStrings, conform } from '../../../src-main/core/gobl/shape/conform.ts';
import { marshalGo, quoteGo } from '../../../src-main/core/gobl/shape/marshal.ts';
import { RawNumber } from '../../../src-main/core/gobl/shape/raw-number.ts';
import { rootTypeOf } from '../../../src-main/core/gobl/shape/schemas.ts';

const OUT_DIR = fileURLToPath(new URL('../../fixtures/gobl/examples/out/', import.meta.url));
const files = readdirSync(OUT_DIR).filter((f) => f.endsWith('.json')).sort();

// Reverses key order everywhere except inside documents GOBL keeps as raw JSON.
function shuffled(value: any): any {
  if (Array.isArray(value)) return value.map(shuffled);
  if (value && typeof value === 'object') {
    if (typeof value.$schema === 'string' && !rootTypeOf(value.$schema)) return value;
    const out: any = {};
    for (const key of Object.keys(value).reverse()) out[key] = shuffled(value[key]);
    return out;
  }
  return value;
}

describe('marshalGo(conform(…)) on GOBL example outputs', () => {
  it('covers the committed examples', () => {
    expect(files.length).toBe(69);
  });

  it.each(files)('%s is byte-identical', (file) => {
    const text = readFileSync(OUT_DIR + file, 'utf8');
    const envelope = JSON.parse(text);
    expect(marshalGo({ ...envelope, doc: conform(envelope.doc, rootTypeOf(envelope.doc.$schema)!) })).toBe(text);
    expect(marshalGo(conform(envelope, 'gobl.Envelope'))).toBe(text);
    expect(marshalGo(conform(shuffled(envelope), 'gobl.Envelope'))).toBe(text);
  });
});

describe('conform', () => {
  it('drops unknown fields, also on nested structs', () => {
    const doc = { $schema: 'https://gobl.org/draft-0/bill/invoice', currency: 'EUR', bogus: 1, supplier: { name: 'S', addresses: [{ number: '1', num: '2' }] } };
    const out = conform(doc, 'bill.Invoice', { fillRequired: false });
    expect(out).toEqual({ $schema: doc.$schema, currency: 'EUR', supplier: { name: 'S', addresses: [{ num: '2' }] } });
    expect(Object.keys(conform({ $schema: 'x', name: 'n' }, 'org.Item'))).toEqual(['$schema', 'name']);
    expect(conform({ name: 'n', tax_id: { $schema: 'x', country: 'ES' } }, 'org.Party')).toEqual({ name: 'n', tax_id: { country: 'ES' } });
  });

  it('sorts map keys by bytes and applies omitempty', () => {
    const out = conform({ cat: 'VAT', key: '', percent: '0%', ext: { 'b-x': '1', 'a-y': '2' } }, 'tax.Combo');
    expect(JSON.stringify(out)).toBe('{"cat":"VAT","percent":"0%","ext":{"a-y":"2","b-x":"1"}}');
    expect(conform({ name: 'x', identities: [], meta: {}, ext: {} }, 'org.Party')).toEqual({ name: 'x' });
    expect(conform({ code: 'A', retained: false, rates: [], amount: '0.00' }, 'tax.CategoryTotal')).toEqual({ code: 'A', rates: [], amount: '0.00' });
  });

  it('keeps empty objects (non-nil pointers) and writes zero values for absent required fields', () => {
    expect(conform({ currency: 'EUR', tax: {} }, 'bill.Invoice', { fillRequired: false })).toEqual({ currency: 'EUR', tax: {} });
    expect(conform({ cat: 'VAT' }, 'tax.Combo')).toEqual({ cat: 'VAT' });
    expect(conform({}, 'tax.Combo')).toEqual({ cat: '' });
    expect(conform({ name: 'a' }, 'bill.Line')).toEqual({ i: 0, quantity: '0', item: null });
    expect(conform({ lat: 0, lon: 0 }, 'org.Coordinates')).toEqual({ lat: 0, lon: 0 });
  });

  it('does not modify its input', () => {
    const doc = { cat: 'VAT', junk: true };
    conform(doc, 'tax.Combo');
    expect(doc).toEqual({ cat: 'VAT', junk: true });
  });
});

describe('marshalGo', () => {
  it('writes Go MarshalIndent bytes', () => {
    expect(marshalGo({ a: [], b: {}, c: [1, { d: null }], e: true })).toBe('{\n\t"a": [],\n\t"b": {},\n\t"c": [\n\t\t1,\n\t\t{\n\t\t\t"d": null\n\t\t}\n\t],\n\t"e": true\n}');
    expect(marshalGo({ q: new RawNumber('10.50') })).toBe('{\n\t"q": 10.50\n}');
  });

  it('escapes HTML characters, line separators and control characters like Go', () => {
    expect(quoteGo('Mattoni & <Cementi>')).toBe('"Mattoni \\u0026 \\u003cCementi\\u003e"');
    expect(quoteGo('a\u2028b\u2029')).toBe('"a\\u2028b\\u2029"');
    expect(quoteGo('\b\f\n\r\t\u0001\u001f"\\')).toBe('"\\b\\f\\n\\r\\t\\u0001\\u001f\\"\\\\"');
    expect(quoteGo('\u007f é 😀')).toBe('"\u007f é 😀"');
    expect(quoteGo('x\ud800y')).toBe('"x\ufffdy"');
  });

  it('compares map keys as Go does (code points, not UTF-16 units)', () => {
    expect(['\uff61', '\u{1F600}', 'a'].sort(compareGoStrings)).toEqual(['a', '\uff61', '\u{1F600}']);
  });
});
