// A JSON request body → values, as the number-keeping parser (parseJsonText) makes them: numbers
// whose text a float would change stay RawNumbers. That parser's reviver costs five times plain
// JSON.parse (40 ms for a thousand-entry import, all of it one block of the event loop), so the
// body is parsed plainly and only the parts holding such numbers again with the reviver (a
// GOBL document writes its amounts as strings; most bodies have none). A large body lets other
// requests in while it is read, before and after its parse, and between its parts; one of a
// megabyte or more is parsed a piece at a time (json-in-turns.ts).
import { ApiError } from '../core/api/errors.ts';
import { IN_TURNS_FROM, JsonTooDeep, MAX_JSON_DEPTH, NotJson, parseJsonInTurns } from '../core/api/json-in-turns.ts';
import { letOthersIn } from '../core/let-others-in.ts';
import { parseJsonPreservingNumbers as parseJsonText } from '../core/gobl/shape/json-text.ts';
import { scanJson, type JsonScan } from './json-scan.ts';

export { MAX_JSON_DEPTH };

/**
 * How much text is parsed between two chances for other requests to run: 128 Ki characters take
 * the reviver 3–5 ms, plain JSON.parse under 1 ms. Counted in text rather than time, so that what
 * yields is the same on every machine.
 */
export const YIELD_EVERY_CHARS = 128 * 1024;

const tooDeep = () => new ApiError('bad-request', `request body nests objects and arrays more than ${MAX_JSON_DEPTH} levels deep`);

/** Parses a request body's text; bad JSON and too deep nesting are 400s. */
export async function parseJsonBody(text: string): Promise<unknown> {
  // A 50 MB import held the event loop 130 ms for the scan below and 350 ms for JSON.parse, each in one block.
  if (text.length >= IN_TURNS_FROM) return parseLargeBody(text);
  const scan = scanJson(text, MAX_JSON_DEPTH);
  if (scan.depth > MAX_JSON_DEPTH) throw tooDeep();
  // JSON.parse of a large body is a block of its own (a thousand-entry import: about 10 ms, as long again as the scan).
  if (text.length >= YIELD_EVERY_CHARS) await letOthersIn();
  let value: unknown;
  try {
    value = scan.rootNumber ? parseJsonText(text) : JSON.parse(text);
  } catch (err) {
    throw notJson(err);
  }
  // Plain JSON.parse counts for a fifth of the reviver's text.
  let parsed = text.length / 5;
  const keys = scan.units.length > 0 && !Array.isArray(value) ? lastMembers(text, scan) : undefined;
  for (const unit of scan.units) {
    // A member whose key comes again later is not the value: the later one is.
    const at = keys ? keys.get(unit.member) : unit.member;
    if (at === undefined) continue;
    if (parsed >= YIELD_EVERY_CHARS) {
      await letOthersIn();
      parsed = 0;
    }
    parsed += unit.end - unit.start;
    const revived = parseJsonText(text.slice(unit.start, unit.end));
    const root = value as Record<string | number, unknown>;
    if (unit.element === undefined) root[at] = revived;
    else (root[at] as unknown[])[unit.element] = revived;
  }
  // What runs next (the body's validation, the handler) starts a block of its own.
  if (parsed >= YIELD_EVERY_CHARS / 8) await letOthersIn();
  return value;
}

async function parseLargeBody(text: string): Promise<unknown> {
  try {
    return await parseJsonInTurns(text, { maxDepth: MAX_JSON_DEPTH, keepNumbers: parseJsonText });
  } catch (err) {
    if (err instanceof JsonTooDeep) throw tooDeep();
    if (err instanceof NotJson) throw notJson(err);
    throw err;
  }
}

/**
 * JSON.parse's own message for text it refused, position and line included. The number-keeping
 * parser is JSON.parse too (with a reviver), so it would refuse the same text with the same
 * words; running it again only to word the refusal held the event loop 600 ms for a 50 MB body.
 */
function notJson(err: unknown): ApiError {
  return new ApiError('bad-request', `request body is not valid JSON: ${(err as Error).message.slice(0, 200)}`);
}

/**
 * An object root's keys by member position, for the members that hold the value of their key:
 * JSON.parse keeps the last of members written with the same key.
 */
function lastMembers(text: string, scan: JsonScan): Map<number, string> {
  const byKey = new Map<string, number>();
  scan.keys.forEach(([start, end], member) => byKey.set(JSON.parse(text.slice(start, end)) as string, member));
  return new Map([...byKey].map(([key, member]) => [member, key]));
}
