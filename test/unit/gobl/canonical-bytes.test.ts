// The byte writer behind digests must hash exactly the bytes of canonicalJson's text.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { canonicalSha256 } from '../../../src-main/core/gobl/canonical-bytes.ts';
import { canonicalJson } from '../../../src-main/core/gobl/canonical.ts';
import { RawNumber } from '../../../src-main/core/gobl/shape/raw-number.ts';
import { loadEnvelopes } from '../../fixtures/gobl/load.ts';

const viaText = (value: unknown) => createHash('sha256').update(canonicalJson(value), 'utf8').digest('hex');

const AWKWARD: unknown[] = [
  null, true, false, 0, -0, 1.5, 1e21, 5e-7, 'plain', '', [], {}, [null, undefined, () => 1, Symbol('s')],
  { b: 1, a: null, c: undefined, d: () => 1, e: [undefined] },
  { s: 'quote " backslash \\ newline \n tab \t ctrl \u0001 del \u007f line-sep \u2028 ñ € 😀 lone \ud800 end \udfff <&>' },
  { 'ké\u0000y"\\': 'v', '😀': 1, '\uFF01': 2, Z: 3, a: 4, '10': 5, '2': 6, __proto__x: 7 },
  { 'two-byte': 'é߿', 'three-byte': 'ࠀ€￿', 'pairs': '😀𐀀􏿿', 'high then low': '\udbff\udfff', 'low then high': '\udc00\ud800' },
  { n: new RawNumber('10.50'), m: [new RawNumber('1e5'), new RawNumber('-0')] },
  JSON.parse('{"__proto__": {"x": 1}, "y": 2}'),
  new Date(0),
  { big: 'x'.repeat(200_000), more: ['é'.repeat(70_000), '😀'.repeat(40_000)] },
];

describe('canonicalSha256', () => {
  it.each(AWKWARD.map((v, i) => [i, v] as const))('hashes the canonical text of awkward value %i', (_i, value) => {
    expect(canonicalSha256(value, 'hex')).toBe(viaText(value));
    expect(canonicalSha256(value, 'buffer').toString('hex')).toBe(viaText(value));
  });

  it('hashes the canonical text of every GOBL fixture, envelope and document', () => {
    for (const { envelope } of loadEnvelopes()) {
      expect(canonicalSha256(envelope, 'hex')).toBe(viaText(envelope));
      expect(canonicalSha256(envelope.doc, 'hex')).toBe(envelope.head.dig.val);
    }
  });

  it('refuses what canonicalJson refuses, and is whole again after a refusal', () => {
    for (const bad of [{ a: ['x'.repeat(1000), NaN] }, { a: Infinity }, { a: 1n }, [new RawNumber('x')]]) {
      expect(() => canonicalJson(bad)).toThrow(TypeError);
      expect(() => canonicalSha256(bad, 'hex')).toThrow(TypeError);
      expect(canonicalSha256({ b: 'after' }, 'hex')).toBe(viaText({ b: 'after' }));
    }
  });
});
