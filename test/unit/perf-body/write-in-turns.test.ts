// The piecewise writers give what their one-call counterparts give (JSON.stringify, canonicalSha256Parts),
// taken apart at every level, and let other work in while they write a large document.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stringifyInTurns } from '../../../src-main/core/api/json-write-in-turns.ts';
import { canonicalSha256Parts } from '../../../src-main/core/gobl/canonical-bytes.ts';
import { digestOf } from '../../../src-main/core/gobl/canonical.ts';
import { canonicalSha256PartsInTurns, digestInTurns } from '../../../src-main/core/gobl/canonical-in-turns.ts';
import { RawNumber } from '../../../src-main/core/gobl/shape/raw-number.ts';
import { loadEnvelope, loadEnvelopes } from '../../fixtures/gobl/load.ts';
import { turnsDuring } from '../../support/event-loop-turns.ts';

/** Every container taken apart, at every depth. */
const EVERY_LEVEL = { depth: 64, wideArray: 0 };

const outcome = async <T>(work: () => T | Promise<T>): Promise<T | 'threw'> => {
  try {
    return await work();
  } catch {
    return 'threw';
  }
};

const AWKWARD: unknown[] = [
  { b: 1, a: null, c: undefined, d: () => 1, e: [undefined, () => 1, Symbol('s'), null], f: Symbol('x') },
  { n: new RawNumber('10.50'), m: [new RawNumber('1e5'), new RawNumber('-0')], t: { toJSON: () => 'own toJSON' } },
  JSON.parse('{"__proto__": {"x": 1}, "y": [2]}'),
  Object.assign(Object.create(null), { z: 1, a: [{ k: 'v' }] }),
  { d: new Date(0), map: new Map([[1, 2]]), s: 'quote " \\ \n \u2028 😀 \ud800' },
  // eslint-disable-next-line no-sparse-arrays
  [1, , 3],
  { big: 1n },
  { a: { toJSON: () => undefined }, b: [{ toJSON: () => undefined }], c: 1 },
];

/** A large invoice: a wide array of lines under the document. */
function largeInvoice(lines: number) {
  const envelope = loadEnvelope('es-invoice-es-es.json');
  envelope.doc.lines = Array.from({ length: lines }, (_, i) => ({ ...structuredClone(envelope.doc.lines[0]), i: i + 1, quantity: new RawNumber('1.50') }));
  return envelope;
}

describe('stringifyInTurns', () => {
  it('writes what JSON.stringify writes, taken apart at every level', async () => {
    await fc.assert(
      fc.asyncProperty(fc.anything({ maxDepth: 5, withNullPrototype: true, withDate: true, withMap: true, withSparseArray: true, withBoxedValues: true }), async (value) => {
        expect(await outcome(() => stringifyInTurns(value, EVERY_LEVEL))).toBe(await outcome(() => JSON.stringify(value)));
        expect(await outcome(() => stringifyInTurns(value))).toBe(await outcome(() => JSON.stringify(value)));
      }),
      { numRuns: 1500 },
    );
  });

  it.each(AWKWARD.map((v, i) => [i, v] as const))('writes awkward value %i as JSON.stringify does', async (_i, value) => {
    expect(await outcome(() => stringifyInTurns(value, EVERY_LEVEL))).toBe(await outcome(() => JSON.stringify(value)));
  });

  it('writes every GOBL fixture as JSON.stringify does', async () => {
    for (const { envelope } of loadEnvelopes()) expect(await stringifyInTurns(envelope, EVERY_LEVEL)).toBe(JSON.stringify(envelope));
  });

  it('lets others in while it writes a large invoice', async () => {
    const envelope = largeInvoice(20_000);
    const { result, turns } = await turnsDuring(() => stringifyInTurns(envelope));
    expect(result).toBe(JSON.stringify(envelope));
    // About 7 MB of text, others let in every 1 Mi characters.
    expect(turns).toBeGreaterThanOrEqual(5);
  });
});

describe('canonicalSha256PartsInTurns', () => {
  const same = async (value: unknown, part: object, walked = EVERY_LEVEL) => {
    const inTurns = await outcome(() => canonicalSha256PartsInTurns(value, part, walked));
    const whole = await outcome(() => canonicalSha256Parts(value, part));
    expect(inTurns === 'threw' ? inTurns : { whole: inTurns.whole.toString('hex'), part: inTurns.part }).toEqual(
      whole === 'threw' ? whole : { whole: whole.whole.toString('hex'), part: whole.part },
    );
  };

  it('hashes what canonicalSha256Parts hashes, any part, taken apart at any level', async () => {
    const containers = (value: unknown, found: object[] = []): object[] => {
      if (typeof value !== 'object' || value === null || value instanceof RawNumber) return found;
      found.push(value);
      for (const member of Array.isArray(value) ? value : Object.values(value)) containers(member, found);
      return found;
    };
    await fc.assert(
      fc.asyncProperty(fc.jsonValue({ maxDepth: 6 }), fc.nat(), fc.nat({ max: 6 }), fc.nat({ max: 4 }), async (value, pick, depth, wideArray) => {
        const all = containers(value);
        const part = all.length > 0 ? all[pick % all.length] : {};
        await same(value, part, { depth, wideArray });
      }),
      { numRuns: 1500 },
    );
  });

  it.each(AWKWARD.map((v, i) => [i, v] as const))('hashes awkward value %i as canonicalSha256Parts does', async (_i, value) => {
    await same({ data: value, folder: 'x' }, value as object);
  });

  it('hashes a request for every GOBL fixture, its document marked, as canonicalSha256Parts does', async () => {
    for (const { envelope } of loadEnvelopes()) {
      await same({ data: envelope, tags: ['a'], folder: 'f' }, envelope.doc);
      await same({ data: envelope.doc }, envelope.doc, { depth: 3, wideArray: 64 });
    }
  });

  it('is whole again after a value it refuses', async () => {
    await expect(canonicalSha256PartsInTurns({ a: [1, NaN] }, {})).rejects.toThrow(TypeError);
    await same({ data: { b: 'after' } }, {});
  });

  it('digests a document as digestOf does, a large one too', async () => {
    for (const { envelope } of loadEnvelopes()) expect(await digestInTurns(envelope.doc)).toEqual(digestOf(envelope.doc));
    const large = largeInvoice(5_000).doc;
    expect(await digestInTurns(large)).toEqual(digestOf(large));
  });

  it('lets others in while it hashes a large invoice', async () => {
    const envelope = largeInvoice(20_000);
    const request = { data: envelope, folder: 'sales' };
    const { result, turns } = await turnsDuring(() => canonicalSha256PartsInTurns(request, envelope.doc));
    const whole = canonicalSha256Parts(request, envelope.doc);
    expect(result.whole.equals(whole.whole)).toBe(true);
    expect(result.part).toBe(whole.part);
    expect(turns).toBeGreaterThanOrEqual(5);
  });
});
