// JSON.stringify of a large value a piece at a time, letting others in between. Handing a
// 13,000-line invoice to the GOBL engine thread as JSON held the event loop 20 ms in one call;
// written here, each line is a piece of its own. The text is the one JSON.stringify gives.
import { TurnBudget } from '../turn-budget.ts';

/** Characters written between two chances for others to run: about 4 ms of JSON.stringify. */
const CHARS_PER_TURN = 1024 * 1024;

/**
 * Containers are written member by member down to this depth (an envelope, its document, a
 * line), and any array of at least WIDE_ARRAY items at any depth; everything under them is one
 * JSON.stringify call each.
 */
export const WALKED_DEPTH = 3;
export const WIDE_ARRAY = 64;

/** Where a value is taken apart (tests take every value apart at every level). */
export interface Walked {
  depth: number;
  wideArray: number;
}

const isPlainObject = (value: object): boolean => {
  const proto = Object.getPrototypeOf(value);
  return (proto === Object.prototype || proto === null) && typeof (value as { toJSON?: unknown }).toJSON !== 'function';
};

/** What JSON.stringify leaves out of an object, and writes as null in an array. */
const unwritten = (value: unknown) => value === undefined || typeof value === 'function' || typeof value === 'symbol';

/**
 * JSON.stringify(value) (no replacer, no indent), worked out a piece at a time: undefined for
 * a value JSON.stringify writes nothing for (undefined, a function), as it gives.
 */
export async function stringifyInTurns(value: unknown, walked: Walked = { depth: WALKED_DEPTH, wideArray: WIDE_ARRAY }): Promise<string | undefined> {
  const pieces: string[] = [];
  const budget = new TurnBudget(CHARS_PER_TURN);
  const walks = (v: unknown, depth: number): v is object =>
    typeof v === 'object' && v !== null && (Array.isArray(v) ? depth < walked.depth || v.length >= walked.wideArray : depth < walked.depth && isPlainObject(v));
  // A value not walked, in one call: undefined where JSON.stringify writes nothing (a toJSON may answer undefined too).
  const whole = async (v: unknown): Promise<string | undefined> => {
    const text = JSON.stringify(v) as string | undefined;
    if (text !== undefined) await budget.spend(text.length);
    return text;
  };
  const write = async (v: object, depth: number): Promise<void> => {
    if (Array.isArray(v)) {
      pieces.push('[');
      for (let i = 0; i < v.length; i++) {
        if (i > 0) pieces.push(',');
        const item: unknown = v[i];
        if (walks(item, depth + 1)) await write(item, depth + 1);
        else pieces.push((unwritten(item) ? undefined : await whole(item)) ?? 'null');
      }
      pieces.push(']');
      return;
    }
    pieces.push('{');
    let first = true;
    for (const key of Object.keys(v)) {
      const member = (v as Record<string, unknown>)[key];
      if (unwritten(member)) continue;
      const walked = walks(member, depth + 1);
      const text = walked ? undefined : await whole(member);
      if (!walked && text === undefined) continue;
      pieces.push(first ? `${JSON.stringify(key)}:` : `,${JSON.stringify(key)}:`);
      first = false;
      if (walked) await write(member, depth + 1);
      else pieces.push(text!);
    }
    pieces.push('}');
  };
  if (!walks(value, 0)) return whole(value);
  await write(value, 0);
  return pieces.join('');
}
