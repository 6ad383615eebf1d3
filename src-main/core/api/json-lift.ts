// A JSON body whose operation takes files as base64 (bytes-members.ts: an attachment's `data`,
// a sync push's `blobs[].data`, and a sync read's answer as its client reads it) is mostly those
// texts. Made into one string and parsed, a 50 MiB file costs four blocks of the event loop of 40-105 ms each (the body as text, the
// parse, the base64 check, the decode). So its long strings are lifted out of the bytes first:
// the rest of the body, a few hundred bytes, is parsed as any body is, and each lifted string
// is decoded from the body's own bytes a part at a time when it sits where the schema takes
// bytes, or put back as the text it is anywhere else.
import { randomBytes } from 'node:crypto';
import { ApiError } from './errors.ts';
import { NOT_BASE64, replaceAlong, type BytesPath } from './bytes-members.ts';
import { BACKSLASH, COLON, QUOTE } from './json-tokens.ts';
import { decodeBase64InTurns } from '../files/base64-in-turns.ts';
import { BYTES_PER_TURN } from '../files/hashed-bytes.ts';
import { TurnBudget } from '../turn-budget.ts';

/** Strings at least this long (in bytes, between the quotes) are lifted; shorter ones cost less as they are. */
export const LIFT_MIN_BYTES = 4 * 1024;

/** A string value written between body[start - 1] and body[end] (its quotes), with no escapes. */
interface Lifted {
  start: number;
  end: number;
}

// Stands in for a lifted string in the text that is parsed: a NUL no client's text begins
// with in practice, and a nonce no client can know, so a client's own string is never taken for one.
const MARKER = `\u0000silodesk-lift:${randomBytes(12).toString('hex')}:`;
const MARKER_JSON = JSON.stringify(MARKER).slice(1, -1);

/** How the rest of the text is parsed: a request body's parser (its errors are 400s), or a sync client's. */
export type ParseJson = (text: string) => unknown;

/**
 * The body's value, with its bytes members decoded (HashedBytes, or NOT_BASE64) when it has long
 * ones; without bytes paths, parsed by `parse` as any body. A long string holding a control
 * character, which JSON.parse refuses, is a bad-request ApiError.
 */
export async function parseJsonLifting(body: Buffer, paths: readonly BytesPath[], parse: ParseJson): Promise<unknown> {
  const lifted = paths.length > 0 ? longStrings(body) : [];
  if (lifted.length === 0) return parse(body.toString('utf8'));

  let text = '';
  let from = 0;
  lifted.forEach((l, i) => {
    text += `${body.toString('utf8', from, l.start)}${MARKER_JSON}${i}`;
    from = l.end;
  });
  let value = await parse(text + body.toString('utf8', from));

  const budget = new TurnBudget(BYTES_PER_TURN);
  const placed = new Set<number>();
  const decode = async (member: unknown) => {
    const i = liftedIndex(member, lifted.length);
    if (i === undefined) return member;
    placed.add(i);
    return (await decodeBase64InTurns({ bytes: body, ...lifted[i] }, budget)) ?? NOT_BASE64;
  };
  for (const path of paths) value = await replaceAlong(value, path, 0, decode);
  // Elsewhere (a long description, a later member of the same name) a lifted string is the text it was.
  return placed.size === lifted.length ? value : restoreTexts(value, body, lifted, budget);
}

/**
 * The string values of the body at least LIFT_MIN_BYTES long and written without escapes (base64
 * never has any). Quotes are found with indexOf: bytes of UTF-8's multi-byte characters are never
 * a quote or a backslash, and in JSON a quote outside a string always opens one. Member names stay.
 */
function longStrings(body: Buffer): Lifted[] {
  const out: Lifted[] = [];
  let nextBackslash = body.indexOf(BACKSLASH);
  let at = body.indexOf(QUOTE);
  while (at !== -1) {
    const open = at;
    let close = body.indexOf(QUOTE, open + 1);
    while (close !== -1 && escaped(body, close)) close = body.indexOf(QUOTE, close + 1);
    if (close === -1) break;
    if (nextBackslash !== -1 && nextBackslash < open) nextBackslash = body.indexOf(BACKSLASH, open);
    const plain = nextBackslash === -1 || nextBackslash > close;
    if (plain && close - open - 1 >= LIFT_MIN_BYTES && !isMemberName(body, close)) out.push({ start: open + 1, end: close });
    at = body.indexOf(QUOTE, close + 1);
  }
  return out;
}

/** A quote after an odd run of backslashes is part of the string. */
function escaped(body: Buffer, quote: number): boolean {
  let slashes = 0;
  for (let k = quote - 1; k >= 0 && body[k] === BACKSLASH; k--) slashes++;
  return slashes % 2 === 1;
}

function isMemberName(body: Buffer, close: number): boolean {
  let k = close + 1;
  while (k < body.length && (body[k] === 0x20 || body[k] === 0x0a || body[k] === 0x0d || body[k] === 0x09)) k++;
  return body[k] === COLON;
}

function liftedIndex(value: unknown, count: number): number | undefined {
  if (typeof value !== 'string' || !value.startsWith(MARKER)) return undefined;
  const i = Number(value.slice(MARKER.length));
  return Number.isInteger(i) && i >= 0 && i < count ? i : undefined;
}

/** The value with every lifted string that is still a marker put back as its text. */
async function restoreTexts(value: unknown, body: Buffer, lifted: Lifted[], budget: TurnBudget): Promise<unknown> {
  const i = liftedIndex(value, lifted.length);
  if (i !== undefined) return textOf(body, lifted[i], budget);
  if (typeof value !== 'object' || value === null) return value;
  const members = value as Record<string, unknown>;
  for (const key of Object.keys(members)) {
    // An own member (one named __proto__ too, as JSON.parse makes it) is set as itself.
    members[key] = await restoreTexts(members[key], body, lifted, budget);
  }
  return value;
}

/** A lifted string's text; JSON.parse would have refused one holding a control character. */
async function textOf(body: Buffer, { start, end }: Lifted, budget: TurnBudget): Promise<string> {
  for (let from = start; from < end; from += budget.perTurn) {
    const to = Math.min(end, from + budget.perTurn);
    for (let k = from; k < to; k++) {
      if (body[k] < 0x20) throw new ApiError('bad-request', `request body is not valid JSON: a string holds the control character U+${body[k].toString(16).padStart(4, '0').toUpperCase()}`);
    }
    await budget.spend(to - from);
  }
  return body.toString('utf8', start, end);
}
