import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { canonicalJson, compareCodePoints, digestOf } from '../../../src-main/core/gobl/canonical.ts';
import { loadEnvelopes } from '../../fixtures/gobl/load.ts';

// Rebuilds every object with its keys in reverse order, deeply.
function reverseKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reverseKeys);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.keys(value).reverse().map((k) => [k, reverseKeys((value as any)[k])]));
  }
  return value;
}

describe('digestOf', () => {
  const fixtures = loadEnvelopes();

  it('loads all 68 GOBL fixtures', () => {
    expect(fixtures).toHaveLength(68);
  });

  it.each(fixtures.map((f) => [f.file, f.envelope] as const))('matches head.dig of %s', (_file, envelope) => {
    expect(digestOf(envelope.doc)).toEqual({ alg: 'sha256', val: envelope.head.dig.val });
  });

  it('is the hex SHA-256 of the canonical JSON', () => {
    const doc = { b: 1, a: 'x' };
    const expected = createHash('sha256').update('{"a":"x","b":1}').digest('hex');
    expect(digestOf(doc).val).toBe(expected);
    expect(digestOf(doc).val).toMatch(/^[0-9a-f]{64}$/);
  });

  it('does not depend on key order', () => {
    for (const { envelope } of fixtures.slice(0, 10)) {
      const reordered = reverseKeys(envelope.doc);
      expect(JSON.stringify(reordered)).not.toBe(JSON.stringify(envelope.doc));
      expect(digestOf(reordered).val).toBe(envelope.head.dig.val);
    }
  });

  it('ignores null members but not nulls inside arrays', () => {
    const { envelope } = fixtures.find((f) => f.file === 'es-invoice-es-es.json')!;
    const withNulls = { ...envelope.doc, customer: { ...envelope.doc.customer, alias: null }, op_date: null };
    expect(digestOf(withNulls).val).toBe(envelope.head.dig.val);
    expect(digestOf({ a: [1, null] }).val).not.toBe(digestOf({ a: [1] }).val);
  });

  it('changes when one character of the document changes', () => {
    const { envelope } = fixtures.find((f) => f.file === 'es-invoice-es-es.json')!;
    const changed = structuredClone(envelope.doc);
    changed.totals.payable = '1970.21';
    expect(digestOf(changed).val).not.toBe(envelope.head.dig.val);
    const renamed = structuredClone(envelope.doc);
    renamed.supplier.name = 'Provide One S.L';
    expect(digestOf(renamed).val).not.toBe(envelope.head.dig.val);
  });
});

describe('canonicalJson', () => {
  it('sorts keys, drops null members, keeps array nulls, adds no whitespace', () => {
    expect(canonicalJson({ b: 1, a: [null, { d: null, c: 'x y' }], e: {} })).toBe('{"a":[null,{"c":"x y"}],"b":1,"e":{}}');
  });

  it('escapes strings exactly as JSON.stringify does', () => {
    const s = 'quote " backslash \\ newline \n tab \t ctrl \u0001 del \u007f line-sep \u2028 ñ € 😀 lone \ud800 <&>';
    expect(canonicalJson({ s })).toBe(`{"s":${JSON.stringify(s)}}`);
  });

  it('writes numbers and booleans as JSON.stringify does', () => {
    expect(canonicalJson([1, -0, 1.5, 1e21, true, false])).toBe('[1,0,1.5,1e+21,true,false]');
  });

  it('sorts keys by code point, not by UTF-16 unit or locale', () => {
    const emoji = '\u{1F600}';
    const fullwidth = '\uFF01';
    // UTF-16 order would put the emoji (starts with 0xD83D) before U+FF01.
    expect(canonicalJson({ [emoji]: 1, [fullwidth]: 2, Z: 3, a: 4 })).toBe(`{"Z":3,"a":4,"${fullwidth}":2,"${emoji}":1}`);
    expect(compareCodePoints(emoji, fullwidth)).toBeGreaterThan(0);
    expect(canonicalJson({ b: 1, B: 2, á: 3, a: 4 })).toBe('{"B":2,"a":4,"b":1,"á":3}');
  });

  it('refuses values JSON cannot carry faithfully', () => {
    expect(() => canonicalJson({ a: Number.NaN })).toThrow(TypeError);
    expect(() => canonicalJson({ a: 1n })).toThrow(TypeError);
  });
});
