// Canonical JSON written straight into UTF-8 bytes, for hashing. A digest is what nearly every
// canonicalisation is for (the document's head.dig, a request's hash), and a digest needs bytes,
// not a string: writing them directly skips the sorted copy of every object that canonicalJson
// hands to JSON.stringify, the string it makes, and the string's UTF-8 encoding inside the hash.
// That was three quarters of a digest's time. The bytes are exactly canonicalJson's text in
// UTF-8 (canonical.test.ts compares them on every GOBL fixture and on awkward values).
import { hash } from 'node:crypto';
import { RawNumber } from './shape/raw-number.ts';
import { compareCodePoints, hasHighUnit, sortedKeys } from './canonical-keys.ts';

// One buffer, reused: a digest is written and hashed before anything else can use it.
let buf = new Uint8Array(1 << 16);
let pos = 0;

function room(bytes: number): void {
  if (pos + bytes <= buf.length) return;
  let size = buf.length * 2;
  while (size < pos + bytes) size *= 2;
  const bigger = new Uint8Array(size);
  bigger.set(buf.subarray(0, pos));
  buf = bigger;
}

function ascii(text: string): void {
  room(text.length);
  for (let i = 0; i < text.length; i++) buf[pos++] = text.charCodeAt(i);
}

/**
 * `text` as a JSON string: quoted, then ASCII and the rest of the BMP encoded in place. A string
 * with anything JSON.stringify escapes (quotes, backslashes, control characters, lone
 * surrogates) or with a surrogate pair is rare; it is quoted by JSON.stringify and encoded
 * from that.
 */
function quoted(text: string): void {
  room(text.length * 3 + 2);
  // Locals, not the module's `buf` and `pos`, in the loop that writes most of the bytes.
  const out = buf;
  let p = pos;
  out[p++] = 0x22;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) {
      if (c < 0x20 || c === 0x22 || c === 0x5c) return requoted(text);
      out[p++] = c;
    } else if (c < 0x800) {
      out[p++] = 0xc0 | (c >> 6);
      out[p++] = 0x80 | (c & 0x3f);
    } else if (c >= 0xd800 && c <= 0xdfff) {
      return requoted(text);
    } else {
      out[p++] = 0xe0 | (c >> 12);
      out[p++] = 0x80 | ((c >> 6) & 0x3f);
      out[p++] = 0x80 | (c & 0x3f);
    }
  }
  out[p++] = 0x22;
  pos = p;
}

// JSON.stringify's text is well-formed UTF-16 (it escapes lone surrogates), so pairs are whole.
function requoted(text: string): void {
  const json = JSON.stringify(text);
  room(json.length * 3);
  for (let i = 0; i < json.length; i++) {
    const c = json.charCodeAt(i);
    if (c < 0x80) buf[pos++] = c;
    else if (c < 0x800) {
      buf[pos++] = 0xc0 | (c >> 6);
      buf[pos++] = 0x80 | (c & 0x3f);
    } else if (c >= 0xd800 && c <= 0xdbff) {
      const point = ((c - 0xd800) << 10) + (json.charCodeAt(++i) - 0xdc00) + 0x10000;
      buf[pos++] = 0xf0 | (point >> 18);
      buf[pos++] = 0x80 | ((point >> 12) & 0x3f);
      buf[pos++] = 0x80 | ((point >> 6) & 0x3f);
      buf[pos++] = 0x80 | (point & 0x3f);
    } else {
      buf[pos++] = 0xe0 | (c >> 12);
      buf[pos++] = 0x80 | ((c >> 6) & 0x3f);
      buf[pos++] = 0x80 | (c & 0x3f);
    }
  }
}

function number(value: number): void {
  // A digest over "null" standing in for NaN would silently change the data.
  if (!Number.isFinite(value)) throw new TypeError(`cannot canonicalise non-finite number ${value}`);
  ascii(JSON.stringify(value));
}

function byte(b: number): void {
  room(1);
  buf[pos++] = b;
}

// The same cases as canonical.ts's `write`, in the same order.
function value(v: unknown): void {
  switch (typeof v) {
    case 'string':
      return quoted(v);
    case 'number':
      return number(v);
    case 'boolean':
      return ascii(v ? 'true' : 'false');
    case 'bigint':
      throw new TypeError('cannot canonicalise a bigint');
    case 'object':
      if (v === null) return ascii('null');
      if (v instanceof RawNumber) return number(Number(v.text));
      return Array.isArray(v) ? array(v) : object(v as Record<string, unknown>);
    default:
      // undefined, functions and symbols: as JSON.stringify writes them in arrays.
      return ascii('null');
  }
}

// The value whose bytes are marked while a larger one is written (see canonicalSha256Parts),
// and where they start and end.
let part: object | undefined;
let partStart = -1;
let partEnd = -1;

function array(items: readonly unknown[]): void {
  if (items === part) return marked(items);
  byte(0x5b);
  for (let i = 0; i < items.length; i++) {
    if (i > 0) byte(0x2c);
    value(items[i]);
  }
  byte(0x5d);
}

function object(obj: Record<string, unknown>): void {
  if (obj === part) return marked(obj);
  const proto = Object.getPrototypeOf(obj);
  if (proto !== Object.prototype && proto !== null) return objectByKeys(obj);
  // A plain object (all JSON objects are) has no enumerable key but its own. Its members are
  // read with for…in, through V8's enumeration cache: obj[key] for a key from a list is a lookup
  // by name that, in a process doing much else, misses the cache of recent lookups and costs
  // several times as much. They are taken onto a stack, sorted there by key, and written.
  const start = top;
  for (const key in obj) {
    const member = obj[key];
    if (member === null || member === undefined || typeof member === 'function' || typeof member === 'symbol') continue;
    keyStack[top] = key;
    memberStack[top] = member;
    top++;
  }
  const end = top;
  sortMembers(start, end);
  byte(0x7b);
  for (let i = start; i < end; i++) {
    if (i > start) byte(0x2c);
    quoted(keyStack[i]);
    byte(0x3a);
    value(memberStack[i]);
  }
  byte(0x7d);
  // Members are not kept past their write (the stack above `start` is reused).
  for (let i = start; i < end; i++) memberStack[i] = undefined;
  top = start;
}

// The members of the objects being written, innermost last (see object()).
const keyStack: string[] = [];
const memberStack: unknown[] = [];
let top = 0;

// An insertion sort by key, in code point order (as sortedKeys): objects have a handful of keys.
function sortMembers(start: number, end: number): void {
  let byCodePoints = false;
  for (let i = start; i < end && !byCodePoints; i++) byCodePoints = hasHighUnit(keyStack[i]);
  for (let i = start + 1; i < end; i++) {
    const key = keyStack[i];
    const member = memberStack[i];
    let j = i - 1;
    while (j >= start && (byCodePoints ? compareCodePoints(keyStack[j], key) > 0 : keyStack[j] > key)) {
      keyStack[j + 1] = keyStack[j];
      memberStack[j + 1] = memberStack[j];
      j--;
    }
    keyStack[j + 1] = key;
    memberStack[j + 1] = member;
  }
}

// Any other object (a class instance, whose prototype might list keys of its own): by its own keys.
function objectByKeys(obj: Record<string, unknown>): void {
  byte(0x7b);
  let first = true;
  for (const key of sortedKeys(obj)) {
    const member = obj[key];
    if (member === null || member === undefined || typeof member === 'function' || typeof member === 'symbol') continue;
    if (!first) byte(0x2c);
    first = false;
    quoted(key);
    byte(0x3a);
    value(member);
  }
  byte(0x7d);
}

// The first time the marked value is met; written again unmarked (a value met twice is the same text).
function marked(v: object): void {
  part = undefined;
  partStart = pos;
  value(v);
  partEnd = pos;
}

/** Writes `v` into the buffer, from its start; `mark` is noted where it occurs first. */
function written(v: unknown, mark: object | undefined): Uint8Array {
  pos = 0;
  part = mark;
  partStart = partEnd = -1;
  try {
    value(v);
  } catch (error) {
    pos = 0;
    top = 0;
    memberStack.length = 0;
    throw error;
  } finally {
    part = undefined;
  }
  const bytes = buf.subarray(0, pos);
  pos = 0;
  return bytes;
}

/** The SHA-256 of `v`'s canonical JSON (see canonicalJson), hex or raw. */
export function canonicalSha256(v: unknown, encoding: 'hex'): string;
export function canonicalSha256(v: unknown, encoding: 'buffer'): Buffer;
export function canonicalSha256(v: unknown, encoding: 'hex' | 'buffer'): string | Buffer {
  return hash('sha256', written(v, undefined), encoding as 'hex') as string | Buffer;
}

/**
 * The SHA-256 of `v`'s canonical JSON, and the hex SHA-256 of `part`'s, an object inside `v`
 * (the document in a request): canonical JSON is written member by member, so a member's text
 * is the very bytes it has inside the whole. `part` is undefined when `v` does not hold it
 * (or holds it only as a member that is null, dropped).
 */
export function canonicalSha256Parts(v: unknown, part: object): { whole: Buffer; part: string | undefined } {
  const bytes = written(v, part);
  const whole = hash('sha256', bytes, 'buffer');
  return { whole, part: partStart < 0 ? undefined : hash('sha256', bytes.subarray(partStart, partEnd), 'hex') };
}

/** `v`'s canonical JSON as UTF-8 bytes of its own (canonical-in-turns.ts writes a large value from such pieces). */
export function canonicalBytesOf(v: unknown): Buffer {
  return Buffer.from(written(v, undefined));
}
