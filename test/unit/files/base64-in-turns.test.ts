import { createHash, randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { turnsDuring } from '../../support/event-loop-turns.ts';
import { isBase64 } from '../../../src-main/core/api/contract/common.ts';
import { decodeBase64InTurns } from '../../../src-main/core/files/base64-in-turns.ts';
import { bytesOf, hashBytes, hashBytesInTurns } from '../../../src-main/core/files/hashed-bytes.ts';
import { isHashedBytes } from '../../../src-main/core/files/hashed-bytes-mark.ts';
import { TurnBudget } from '../../../src-main/core/turn-budget.ts';

const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** The text as a string and as bytes in the middle of a larger buffer, as a request body holds it. */
async function bothWays(text: string, budget = () => new TurnBudget(64)) {
  const bytes = Buffer.concat([Buffer.from('{"data":"'), Buffer.from(text, 'utf8'), Buffer.from('"}')]);
  const fromString = await decodeBase64InTurns(text, budget());
  const fromBytes = await decodeBase64InTurns({ bytes, start: 9, end: bytes.length - 2 }, budget());
  return { fromString, fromBytes };
}

describe('decodeBase64InTurns', () => {
  it('accepts exactly what isBase64 accepts, and decodes it as Buffer does, in parts of any size', async () => {
    // Short parts (a budget of 64 characters), so texts cross many of them.
    const text = fc.array(fc.constantFrom(...'AZaz09+/=-_ \n\té.$\u0100\u012b\u0141', ...ALPHABET), { maxLength: 300 }).map((cs) => cs.join(''));
    const plain = fc.uint8Array({ maxLength: 400 }).chain((b) => fc.constantFrom(Buffer.from(b).toString('base64'), Buffer.from(b).toString('base64').replace(/=+$/, '')));
    await fc.assert(
      fc.asyncProperty(fc.oneof(text, plain), async (t) => {
        const { fromString, fromBytes } = await bothWays(t);
        const valid = isBase64(t);
        expect(fromString !== undefined, JSON.stringify(t)).toBe(valid);
        expect(fromBytes !== undefined, JSON.stringify(t)).toBe(valid);
        if (valid) {
          const expected = Buffer.from(t, 'base64');
          expect(Buffer.from(fromString!.bytes)).toEqual(expected);
          expect(Buffer.from(fromBytes!.bytes)).toEqual(expected);
          expect(fromString!.hash).toBe(sha256(expected));
        }
      }),
      { numRuns: 3000 },
    );
  });

  it('refuses every character outside the alphabet, wherever it stands: Node’s decoder would skip it or read it as another', async () => {
    const refused: string[] = [];
    for (let c = 0; c < 0x10000; c++) {
      const ch = String.fromCharCode(c);
      if (ALPHABET.includes(ch)) continue;
      for (const t of [`AAA${ch}`, `${ch}AAA`, `AAAAAA${ch}A`]) {
        if ((await decodeBase64InTurns(t)) !== undefined && !(ch === '=' && t.endsWith('='))) refused.push(`U+${c.toString(16)} in ${JSON.stringify(t)}`);
      }
    }
    expect(refused).toEqual([]);
  });

  it('lets others in between parts of a large text, and decodes it whole', async () => {
    const bytes = randomBytes(300_000);
    const { result: out, turns: interleaved } = await turnsDuring(() => decodeBase64InTurns(bytes.toString('base64'), new TurnBudget(16 * 1024)));
    expect(Buffer.from(out!.bytes)).toEqual(bytes);
    expect(out!.hash).toBe(sha256(bytes));
    // 400 kB of text and 300 kB of hashing in 16 KiB turns: some 40 of them.
    expect(interleaved).toBeGreaterThan(30);
  });
});

describe('hashBytesInTurns', () => {
  it('hashes as hashBytes does, a part at a time', async () => {
    for (const size of [0, 1, 1000, 70_001]) {
      const bytes = randomBytes(size);
      const out = await hashBytesInTurns(bytes, new TurnBudget(4096));
      expect(out.hash).toBe(hashBytes(bytes).hash);
      expect(out.bytes).toBe(bytes);
      expect(isHashedBytes(out)).toBe(true);
    }
  });
});

describe('isHashedBytes', () => {
  it('is true only of what hashed-bytes made: not of a look-alike, a structured clone, or text', () => {
    const real = hashBytes(Buffer.from('abc'));
    expect(isHashedBytes(real)).toBe(true);
    expect(isHashedBytes({ bytes: real.bytes, hash: real.hash })).toBe(false);
    expect(isHashedBytes(structuredClone(real))).toBe(false);
    expect(isHashedBytes(JSON.parse(JSON.stringify(real)))).toBe(false);
    expect(isHashedBytes('YWJj')).toBe(false);
    expect(isHashedBytes(null)).toBe(false);
  });

  it('bytesOf reads base64 text, and takes decoded bytes as they are', () => {
    const real = hashBytes(Buffer.from('abc'));
    expect(bytesOf(real)).toBe(real);
    expect(bytesOf('YWJj').hash).toBe(real.hash);
  });
});
