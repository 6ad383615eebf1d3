import { canonicalSha256 } from './canonical-bytes.ts';
import { sortedKeys } from './canonical-keys.ts';
import { knownDigestOf } from './known-digest.ts';
import { RawNumber } from './shape/raw-number.ts';

export { compareCodePoints } from './canonical-keys.ts';

export type Digest = { alg: 'sha256'; val: string };

/**
 * Canonical JSON as GOBL digests it: object keys sorted by code point, no
 * whitespace, object members whose value is null (or undefined) removed,
 * strings and numbers written exactly as JSON.stringify writes them.
 * Nulls inside arrays stay, because dropping them would shift positions.
 */
export function canonicalJson(value: unknown): string {
  // The fast way: copy the value with every object's keys inserted in canonical order and let
  // JSON.stringify write it, which beats concatenating the text here, and its flat result
  // hashes faster than a rope (a digest took a third less time). JSON.stringify writes
  // strings, numbers and nulls exactly as `write` below does; it only differs on key order
  // for keys that look like array indexes (V8 lists those first) and on a `__proto__` key,
  // so a value with either is written the slow way.
  const sorted = sortedCopy(value);
  return sorted === UNORDERABLE ? write(value) : JSON.stringify(sorted);
}

/**
 * The digest GOBL puts in head.dig: the hex SHA-256 of the canonical JSON (written as bytes, see
 * canonical-bytes.ts), or the one a caller has worked out for this very document (known-digest.ts).
 */
export function digestOf(doc: unknown): Digest {
  return knownDigestOf(doc) ?? { alg: 'sha256', val: canonicalSha256(doc, 'hex') };
}

/** A key order JSON.stringify would not keep. */
const UNORDERABLE: unique symbol = Symbol('unorderable');

/**
 * `value` as plain JSON data in canonical form: keys sorted, null members dropped, and
 * undefined, functions and symbols inside arrays (or at the top) turned into null; or
 * UNORDERABLE. Throws the same errors as `write`.
 */
function sortedCopy(value: unknown): unknown {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      if (!Number.isFinite(value)) throw new TypeError(`cannot canonicalise non-finite number ${value}`);
      return value;
    case 'bigint':
      throw new TypeError('cannot canonicalise a bigint');
    case 'object':
      if (value === null) return null;
      // A number kept as its source text digests as the number it is (as it reads back from storage).
      if (value instanceof RawNumber) return sortedCopy(Number(value.text));
      return Array.isArray(value) ? sortedArray(value) : sortedObject(value as Record<string, unknown>);
    default:
      return null;
  }
}

function sortedArray(items: readonly unknown[]): unknown {
  const out = new Array<unknown>(items.length);
  for (let i = 0; i < items.length; i++) {
    const item = sortedCopy(items[i]);
    if (item === UNORDERABLE) return UNORDERABLE;
    out[i] = item;
  }
  return out;
}

function sortedObject(obj: Record<string, unknown>): unknown {
  const keys = sortedKeys(obj);
  const out: Record<string, unknown> = {};
  for (const key of keys) {
    const member = obj[key];
    if (member === null || member === undefined || typeof member === 'function' || typeof member === 'symbol') continue;
    if (!keepsInsertionOrder(key)) return UNORDERABLE;
    const copy = sortedCopy(member);
    if (copy === UNORDERABLE) return UNORDERABLE;
    out[key] = copy;
  }
  return out;
}

// Integer-like keys are listed by V8 before all others, in numeric order; a conservative test
// (any key starting with a digit) keeps the fast path simple. `__proto__` would set the prototype.
function keepsInsertionOrder(key: string): boolean {
  const first = key.charCodeAt(0);
  return !(first >= 48 && first <= 57) && key !== '__proto__';
}

// The slow way, for any value. V8 joins strings built with `+` as ropes, so it stays linear
// in the output size.
function write(value: unknown): string {
  switch (typeof value) {
    case 'string':
      return quote(value);
    case 'number':
      // A digest over "null" standing in for NaN would silently change the data.
      if (!Number.isFinite(value)) throw new TypeError(`cannot canonicalise non-finite number ${value}`);
      return JSON.stringify(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'bigint':
      throw new TypeError('cannot canonicalise a bigint');
    case 'object':
      if (value === null) return 'null';
      if (value instanceof RawNumber) return write(Number(value.text));
      return Array.isArray(value) ? writeArray(value) : writeObject(value as Record<string, unknown>);
    default:
      // undefined, functions and symbols: as JSON.stringify writes them in arrays.
      return 'null';
  }
}

function writeArray(items: readonly unknown[]): string {
  let out = '[';
  for (let i = 0; i < items.length; i++) {
    if (i > 0) out += ',';
    out += write(items[i]);
  }
  return out + ']';
}

function writeObject(obj: Record<string, unknown>): string {
  let out = '{';
  let first = true;
  for (const key of sortedKeys(obj)) {
    const member = obj[key];
    if (member === null || member === undefined || typeof member === 'function' || typeof member === 'symbol') continue;
    if (!first) out += ',';
    first = false;
    out += quote(key) + ':' + write(member);
  }
  return out + '}';
}

// Most strings need no escaping; JSON.stringify is only called for those that do
// (quotes, backslashes, control characters, lone surrogates).
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

function quote(text: string): string {
  return NEEDS_ESCAPE.test(text) ? JSON.stringify(text) : `"${text}"`;
}
