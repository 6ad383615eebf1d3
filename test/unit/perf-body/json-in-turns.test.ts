import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JsonTooDeep, NotJson, parseJsonInTurns } from '../../../src-main/core/api/json-in-turns.ts';
import { parseJsonPreservingNumbers } from '../../../src-main/core/gobl/shape/json-text.ts';
import { turnsDuring } from '../../support/event-loop-turns.ts';

const MAX_DEPTH = 256;
/** Pieces this small take every text of the properties apart at every level. */
const tiny = (pieceChars: number) => ({ maxDepth: MAX_DEPTH, pieceChars });

/** JSON.parse's answer, or 'refused'. */
function plain(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return 'refused';
  }
}

async function inTurns(text: string, options = tiny(8)): Promise<unknown> {
  try {
    return await parseJsonInTurns(text, options);
  } catch (err) {
    if (err instanceof NotJson) return 'refused';
    throw err;
  }
}

/** The same value, members in the same order. */
const same = (a: unknown, b: unknown) => {
  expect(a).toEqual(b);
  expect(JSON.stringify(a)).toBe(JSON.stringify(b));
};

describe('parseJsonInTurns', () => {
  it('gives what JSON.parse gives, taken apart at every level', async () => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue({ maxDepth: 6 }), fc.constantFrom(undefined, 1, '\t'), fc.integer({ min: 1, max: 40 }), async (value, indent, piece) => {
        const text = JSON.stringify(value, null, indent);
        same(await inTurns(text, tiny(piece)), JSON.parse(text));
      }),
      { numRuns: 400 },
    );
  });

  it('refuses what JSON.parse refuses, and takes what it takes, whatever is cut, doubled or slipped in', async () => {
    const mutated = fc
      .tuple(fc.jsonValue({ maxDepth: 5 }), fc.nat(), fc.constantFrom('', ',', ':', '[', ']', '{', '}', '"', ' ', '0', 'x', '\\'), fc.boolean())
      .map(([value, at, insert, cut]) => {
        const text = JSON.stringify(value);
        const p = at % (text.length + 1);
        return cut ? text.slice(0, p) + insert + text.slice(p + 1) : text.slice(0, p) + insert + text.slice(p);
      });
    await fc.assert(
      fc.asyncProperty(mutated, fc.integer({ min: 1, max: 30 }), async (text, piece) => {
        same(await inTurns(text, tiny(piece)), plain(text));
      }),
      { numRuns: 1500 },
    );
    for (const text of ['[1,,2]', '[1,]', '[,1]', '{"a":1,}', '{,}', '[1] 2', '[1]]', '[[1]', '{"a" 1}', '{"a":1 "b":2}', '["a]', '[}', '{]', '', ' ', '[]', '{}', '[ ]', '{ }']) {
      same(await inTurns(text, tiny(1)), plain(text));
    }
  });

  it('keeps the numbers a float would change as the number-keeping parser does', async () => {
    const numbers = fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constantFrom('1.50', '1e5', '-0', '0.10', '12345678901234567890'));
    // Keys from a set none of the number texts below is in: those are written bare wherever they are quoted.
    const withNumbers = fc.array(fc.dictionary(fc.constantFrom('a', 'b', 'n1', '__proto__', ''), fc.array(numbers, { maxLength: 4 }), { maxKeys: 3 }), { maxLength: 6 }).map((rows) =>
      JSON.stringify(rows).replace(/"(1\.50|1e5|-0|0\.10|12345678901234567890)"/g, '$1'),
    );
    await fc.assert(
      fc.asyncProperty(withNumbers, fc.integer({ min: 1, max: 30 }), async (text, piece) => {
        same(await parseJsonInTurns(text, { ...tiny(piece), keepNumbers: parseJsonPreservingNumbers }), parseJsonPreservingNumbers(text));
      }),
      { numRuns: 300 },
    );
  });

  it(`refuses nesting deeper than ${MAX_DEPTH}, large or small, and takes ${MAX_DEPTH}`, async () => {
    const nested = (n: number) => '['.repeat(n) + ']'.repeat(n);
    for (const piece of [4, 100_000]) {
      await expect(parseJsonInTurns(nested(MAX_DEPTH + 1), tiny(piece))).rejects.toBeInstanceOf(JsonTooDeep);
      await expect(parseJsonInTurns(`{"a": [1, ${nested(MAX_DEPTH)}]}`, tiny(piece))).rejects.toBeInstanceOf(JsonTooDeep);
      expect(await parseJsonInTurns(nested(MAX_DEPTH), tiny(piece))).toBeInstanceOf(Array);
      // Brackets inside strings are text.
      expect(await parseJsonInTurns(`["${'['.repeat(5000)}\\"["]`, tiny(piece))).toEqual([`${'['.repeat(5000)}"[`]);
    }
  });

  it('names where the text goes wrong in the whole text, as JSON.parse does', async () => {
    const rows = Array.from({ length: 2000 }, (_, i) => `{"id": ${i}, "name": "row ${i}"}`);
    rows[1500] = '{"id" 1500}';
    const text = `{\n"rows": [\n${rows.join(',\n')}\n]}`;
    let expected = '';
    try {
      JSON.parse(text);
    } catch (err) {
      expected = (err as Error).message;
    }
    const refused = await parseJsonInTurns(text, tiny(1000)).catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(NotJson);
    expect((refused as Error).message).toBe(expected);
    expect(expected).toMatch(/at position \d+ \(line 1503 column 7\)/);
  });

  it('lets others in while it parses a large text', async () => {
    const item = JSON.stringify({ id: 'x', data: { lines: [{ i: 1, price: '10.00', name: 'a line of text'.repeat(4) }] } });
    const text = `{"entries":[${Array(100_000).fill(item).join(',')}],"on_duplicate":"skip"}`;
    const { result, turns } = await turnsDuring(() => parseJsonInTurns(text, { maxDepth: MAX_DEPTH }));
    same(result, JSON.parse(text));
    // About 13 MB: a turn at least every 1 Mi characters parsed, and the walk's between.
    expect(turns).toBeGreaterThanOrEqual(Math.floor(text.length / (1024 * 1024)));
  });
});
