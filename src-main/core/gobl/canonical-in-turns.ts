// canonicalSha256Parts for a large value, a piece at a time, letting others in between: the
// request hash of a 13,000-line invoice (its document's digest on the way) held the event loop
// 25–30 ms in one call. The pieces are canonical-bytes.ts's own, so the bytes hashed are the
// same; canonical-bytes.ts writes into one shared buffer and cannot stop halfway, so each
// piece is written whole before anything else runs.
import { createHash, type Hash } from 'node:crypto';
import { canonicalBytesOf } from './canonical-bytes.ts';
import type { Digest } from './canonical.ts';
import { sortedKeys } from './canonical-keys.ts';
import { RawNumber } from './shape/raw-number.ts';
import { TurnBudget } from '../turn-budget.ts';

/** Bytes hashed between two chances for others to run: about 5 ms of canonical writing. */
const BYTES_PER_TURN = 1024 * 1024;

import { WALKED_DEPTH, WIDE_ARRAY, type Walked } from '../api/json-write-in-turns.ts';

const OPEN_BRACKET = Buffer.from('[');
const CLOSE_BRACKET = Buffer.from(']');
const OPEN_BRACE = Buffer.from('{');
const CLOSE_BRACE = Buffer.from('}');
const COMMA = Buffer.from(',');
const COLON = Buffer.from(':');

/** Members canonical JSON leaves out of an object. */
const dropped = (member: unknown) => member === null || member === undefined || typeof member === 'function' || typeof member === 'symbol';

/** canonicalSha256Parts(v, part), worked out a piece at a time; without `part`, only the whole is hashed. */
export async function canonicalSha256PartsInTurns(
  v: unknown,
  part: object | undefined,
  walked: Walked = { depth: WALKED_DEPTH, wideArray: WIDE_ARRAY },
): Promise<{ whole: Buffer; part: string | undefined }> {
  const whole = createHash('sha256');
  let inPart: Hash | undefined;
  let partDigest: string | undefined;
  let marking: object | undefined = part;
  const budget = new TurnBudget(BYTES_PER_TURN);
  const emit = (bytes: Buffer) => {
    whole.update(bytes);
    inPart?.update(bytes);
  };
  const write = async (value: unknown, depth: number): Promise<void> => {
    // The first time the part is met its bytes are hashed on their own too (canonical-bytes.ts `marked`).
    if (value === marking && marking !== undefined) {
      marking = undefined;
      const outer = inPart;
      inPart = createHash('sha256');
      await write(value, depth);
      partDigest = inPart.digest('hex');
      inPart = outer;
      return;
    }
    if (Array.isArray(value) && (depth < walked.depth || value.length >= walked.wideArray)) {
      emit(OPEN_BRACKET);
      for (let i = 0; i < value.length; i++) {
        if (i > 0) emit(COMMA);
        await write(value[i], depth + 1);
      }
      emit(CLOSE_BRACKET);
      return;
    }
    if (typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof RawNumber) && depth < walked.depth) {
      const obj = value as Record<string, unknown>;
      emit(OPEN_BRACE);
      let first = true;
      for (const key of sortedKeys(obj)) {
        const member = obj[key];
        if (dropped(member)) continue;
        if (!first) emit(COMMA);
        first = false;
        emit(canonicalBytesOf(key));
        emit(COLON);
        await write(member, depth + 1);
      }
      emit(CLOSE_BRACE);
      return;
    }
    // A value holding the part still unmet is walked, so its bytes are marked where they are.
    const bytes = containsPart(value, marking) ? undefined : canonicalBytesOf(value);
    if (bytes === undefined) return writeAround(value, depth);
    emit(bytes);
    await budget.spend(bytes.length);
  };
  // Past the walked depth, a container holding the part is walked a level further.
  const writeAround = (value: unknown, depth: number) => write(value, Math.min(depth, walked.depth - 1));
  await write(v, 0);
  return { whole: whole.digest(), part: partDigest };
}

/** Whether `part` is `value` or inside it (by identity). */
function containsPart(value: unknown, part: object | undefined): boolean {
  if (part === undefined || typeof value !== 'object' || value === null) return false;
  if (value === part) return true;
  if (value instanceof RawNumber) return false;
  const members = Array.isArray(value) ? value : Object.values(value);
  return members.some((member) => containsPart(member, part));
}

/** digestOf(doc) for a large document, worked out a piece at a time. */
export async function digestInTurns(doc: object): Promise<Digest> {
  const { whole } = await canonicalSha256PartsInTurns(doc, undefined);
  return { alg: 'sha256', val: whole.toString('hex') };
}
