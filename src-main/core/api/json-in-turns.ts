// JSON.parse of a large text a piece at a time, letting others in between. One call on a 50 MB
// import body held the event loop about 350 ms, and the pass before it that looks for deep
// nesting and kept numbers 130 ms more. Here a container larger than a piece is walked once to
// find its direct children (strings skipped with indexOf, depth counted), runs of small children
// are parsed together by JSON.parse as `[…]` or `{…}` (so it checks their commas, keys and
// colons), and a child larger than a piece is taken apart the same way. The value is the one
// JSON.parse gives, and a text JSON.parse refuses is refused; where that is decided here (the
// commas and brackets between pieces), the message is written in the words V8 uses.
import { CLOSE_BRACE, CLOSE_BRACKET, COLON, COMMA, floatKeepsText, numberEnd, OPEN_BRACE, OPEN_BRACKET, QUOTE, startsNumber, stringEnd } from './json-tokens.ts';
import { TurnBudget } from '../turn-budget.ts';

/**
 * Far deeper than any document (a GOBL invoice nests about ten levels). What walks
 * a parsed body recursively (validation, canonical JSON) would otherwise run out
 * of stack on a body nested thousands deep, and answer 500 instead of 400.
 */
export const MAX_JSON_DEPTH = 256;

/** Nesting of JSON the service wrote itself (a stored envelope, the engine thread's answer): a body's MAX_JSON_DEPTH in an envelope or two. */
export const WRITTEN_JSON_DEPTH = MAX_JSON_DEPTH + 8;

/** A text JSON.parse refuses; the message names the position in the whole text. */
export class NotJson extends Error {}

/** A text nesting objects and arrays deeper than allowed. */
export class JsonTooDeep extends Error {}

export interface JsonInTurnsOptions {
  /** deepest nesting of `[` and `{` taken */
  maxDepth: number;
  /** parse pieces holding a number a float would change (`10.50`, `1e5`) with this (the number-keeping parser) */
  keepNumbers?: (text: string) => unknown;
  /** the most characters parsed in one piece */
  pieceChars?: number;
}

/** From this length on a text is worth parsing a piece at a time (a request body, a sync answer): below it, JSON.parse takes a few ms. */
export const IN_TURNS_FROM = 1024 * 1024;

/** Characters a piece holds at most: about 2 ms of JSON.parse here. */
export const PIECE_CHARS = 256 * 1024;

/** Characters of JSON.parse's work between two chances for others to run (a walk counts a third, a reviver five times). */
const PARSE_PER_TURN = 1024 * 1024;

const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

/** A run of a container's children parsed in one piece, or one child too large for a piece. */
type Segment = { kind: 'run'; start: number; end: number; keep: boolean } | { kind: 'large'; start: number; end: number };

class Parser {
  readonly #text: string;
  readonly #options: JsonInTurnsOptions;
  readonly #piece: number;
  readonly #budget = new TurnBudget(PARSE_PER_TURN);

  constructor(text: string, options: JsonInTurnsOptions) {
    this.#text = text;
    this.#options = options;
    this.#piece = options.pieceChars ?? PIECE_CHARS;
  }

  async root(): Promise<unknown> {
    const text = this.#text;
    let start = 0;
    let end = text.length;
    while (start < end && isSpace(text.charCodeAt(start))) start++;
    while (end > start && isSpace(text.charCodeAt(end - 1))) end--;
    if (start === end) throw new NotJson('Unexpected end of JSON input');
    return this.#value(start, end, 0);
  }

  /** The value written in text[start, end) (no space around it), at `depth` containers deep. */
  async #value(start: number, end: number, depth: number): Promise<unknown> {
    const text = this.#text;
    const open = text.charCodeAt(start);
    if (open !== OPEN_BRACKET && open !== OPEN_BRACE) {
      // A string (a long one), a number or a literal: parsed whole.
      const keep = this.#options.keepNumbers !== undefined && startsNumber(open) && !floatKeepsText(text.slice(start, end));
      return this.#parse(start, end, '', '', keep);
    }
    // A container, however small (the root of a text of mostly space): its walk counts its depth and kept numbers.
    const segments = await this.#children(start, end, depth);
    return open === OPEN_BRACKET ? this.#array(segments, depth) : this.#object(segments, depth);
  }

  async #array(segments: Segment[], depth: number): Promise<unknown[]> {
    const out: unknown[] = [];
    for (const s of segments) {
      if (s.kind === 'large') out.push(await this.#value(s.start, s.end, depth + 1));
      else for (const element of (await this.#parse(s.start, s.end, '[', ']', s.keep)) as unknown[]) out.push(element);
    }
    return out;
  }

  async #object(segments: Segment[], depth: number): Promise<Record<string, unknown>> {
    const out: Record<string, unknown> = {};
    // As JSON.parse sets members: own properties (one named __proto__ too), a repeated key's last value in its first place.
    const set = (key: string, value: unknown) => Object.defineProperty(out, key, { value, writable: true, enumerable: true, configurable: true });
    for (const s of segments) {
      if (s.kind === 'large') {
        const { key, valueStart } = this.#member(s.start, s.end);
        set(key, await this.#value(valueStart, s.end, depth + 1));
      } else {
        const members = (await this.#parse(s.start, s.end, '{', '}', s.keep)) as Record<string, unknown>;
        for (const key of Object.keys(members)) set(key, members[key]);
      }
    }
    return out;
  }

  /** A large member: its key (parsed), and where its value starts. */
  #member(start: number, end: number): { key: string; valueStart: number } {
    const text = this.#text;
    if (text.charCodeAt(start) !== QUOTE) throw this.#unexpected(start);
    const keyEnd = stringEnd(text, start);
    if (keyEnd === -1 || keyEnd >= end) throw this.#unexpected(start);
    let at = keyEnd;
    while (at < end && isSpace(text.charCodeAt(at))) at++;
    if (text.charCodeAt(at) !== COLON) throw new NotJson(`Expected ':' after property name in JSON at ${this.#where(at)}`);
    at++;
    while (at < end && isSpace(text.charCodeAt(at))) at++;
    return { key: this.#parseNow(start, keyEnd, '', '', false) as string, valueStart: at };
  }

  /**
   * The direct children of the container text[start, end): runs of small ones, and each large
   * one, with space around them left out. Checks what no piece's parse will see: that the
   * container closes at end - 1 with the bracket it opened with, that no child is empty, and
   * that it nests no deeper than allowed.
   */
  async #children(start: number, end: number, depth: number): Promise<Segment[]> {
    const text = this.#text;
    const open = text.charCodeAt(start);
    const close = open === OPEN_BRACKET ? CLOSE_BRACKET : CLOSE_BRACE;
    const segments: Segment[] = [];
    const limit = this.#options.maxDepth;
    if (depth + 1 > limit) throw new JsonTooDeep(`nests objects and arrays more than ${limit} levels deep`);

    let runStart = -1;
    let runEnd = -1;
    let runKeeps = false;
    const flush = () => {
      if (runStart !== -1) segments.push({ kind: 'run', start: runStart, end: runEnd, keep: runKeeps });
      runStart = -1;
      runKeeps = false;
    };
    // The child being walked: where it starts and ends (space left out), and whether it holds a kept number.
    let childStart = -1;
    let childEnd = -1;
    let childKeeps = false;
    let children = 0;
    const endChild = (at: number) => {
      if (childStart === -1) {
        // `[]` and `{}` have no child; anywhere else an empty one is a stray comma.
        if (children > 0 || text.charCodeAt(at) === COMMA) throw this.#unexpected(at);
        return;
      }
      children++;
      if (childEnd - childStart > this.#piece) {
        flush();
        segments.push({ kind: 'large', start: childStart, end: childEnd });
      } else {
        if (runStart !== -1 && childEnd - runStart > this.#piece) flush();
        if (runStart === -1) runStart = childStart;
        runEnd = childEnd;
        runKeeps ||= childKeeps;
      }
      childStart = -1;
      childKeeps = false;
    };

    let nested = 0;
    let closed = false;
    let walked = start;
    const keep = this.#options.keepNumbers !== undefined;
    for (let i = start + 1; i < end; i++) {
      if (i - walked >= PARSE_PER_TURN) {
        await this.#budget.spend((i - walked) / 3);
        walked = i;
      }
      const c = text.charCodeAt(i);
      if (isSpace(c)) continue;
      if (nested === 0 && c === COMMA) {
        endChild(i);
        continue;
      }
      if (nested === 0 && i === end - 1) {
        if (c !== close) throw this.#unexpected(i);
        endChild(i);
        closed = true;
        continue;
      }
      if (childStart === -1) childStart = i;
      if (c === QUOTE) {
        const after = stringEnd(text, i);
        if (after === -1 || after > end) throw new NotJson(`Unterminated string in JSON at ${this.#where(end)}`);
        i = after - 1;
      } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
        nested++;
        if (depth + 1 + nested > limit) throw new JsonTooDeep(`nests objects and arrays more than ${limit} levels deep`);
      } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
        // Closed before its end: what follows is more than one value (or a bracket too many).
        if (nested === 0) throw this.#unexpected(i);
        nested--;
      } else if (keep && startsNumber(c)) {
        const to = numberEnd(text, i, end);
        if (!floatKeepsText(text.slice(i, to))) childKeeps = true;
        i = to - 1;
      }
      childEnd = i + 1;
    }
    if (!closed) throw new NotJson('Unexpected end of JSON input');
    await this.#budget.spend((end - walked) / 3);
    flush();
    return segments;
  }

  /** text[start, end) inside `before` and `after`, parsed; others are let in when the budget says. */
  async #parse(start: number, end: number, before: string, after: string, keep: boolean): Promise<unknown> {
    const value = this.#parseNow(start, end, before, after, keep);
    await this.#budget.spend((end - start) * (keep ? 5 : 1));
    return value;
  }

  /** text[start, end) inside `before` and `after`, parsed; a refusal names its position in the whole text. */
  #parseNow(start: number, end: number, before: string, after: string, keep: boolean): unknown {
    const piece = before + this.#text.slice(start, end) + after;
    try {
      return keep && this.#options.keepNumbers ? this.#options.keepNumbers(piece) : JSON.parse(piece);
    } catch (err) {
      throw new NotJson(this.#placed((err as Error).message, start - before.length));
    }
  }

  /** V8's message for a piece, its position moved to where the piece sits in the whole text. */
  #placed(message: string, offset: number): string {
    return message.replace(/at position (\d+)(?: \(line \d+ column \d+\))?/, (_, at: string) => `at ${this.#where(offset + Number(at))}`);
  }

  #unexpected(at: number): NotJson {
    const c = this.#text[at];
    return new NotJson(`Unexpected token '${c}' in JSON at ${this.#where(at)}`);
  }

  /** `position N (line L column C)`, as V8 writes it. */
  #where(at: number): string {
    const text = this.#text;
    let line = 1;
    let lineStart = 0;
    for (let nl = text.indexOf('\n'); nl !== -1 && nl < at; nl = text.indexOf('\n', nl + 1)) {
      line++;
      lineStart = nl + 1;
    }
    return `position ${at} (line ${line} column ${at - lineStart + 1})`;
  }
}

/** What JSON.parse(text) gives (numbers kept as `keepNumbers` keeps them), worked out a piece at a time. */
export function parseJsonInTurns(text: string, options: JsonInTurnsOptions): Promise<unknown> {
  return new Parser(text, options).root();
}

/**
 * A document's text as the service stored it, parsed as JSON.parse does: a large one a piece at
 * a time (4.4 MB: 30-60 ms in one call), a small one at once.
 */
export function parseStoredJson(text: string): Promise<unknown> {
  return text.length >= IN_TURNS_FROM ? parseJsonInTurns(text, { maxDepth: WRITTEN_JSON_DEPTH }) : Promise.resolve(JSON.parse(text));
}
