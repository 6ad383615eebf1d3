// Go value semantics over JSON values. GOBL's tests run on Go values: a nil pointer, a zero
// value and an "empty" value are different things there, and a struct is never empty. Here a
// JSON value is read through the GOBL type of its field to get the same answers.
import type { FieldType } from '../../shape/schemas.ts';
import type { At } from './model.ts';

// Types that are Go structs although they travel as JSON strings: never "empty" once present.
const STRUCT_SCALARS = new Set(['num.Amount', 'num.Percentage', 'cal.Date', 'cal.DateTime', 'cal.Time', 'cal.Timestamp']);

export function isNil(value: unknown): boolean {
  return value === undefined || value === null;
}

export function isObject(value: unknown): value is Record<string, any> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function isStructScalar(type: FieldType | undefined): boolean {
  return type !== undefined && type.kind === 'scalar' && type.type !== undefined && STRUCT_SCALARS.has(type.type);
}

/** Go's emptyValue for a present value: "" / [] / {} of a map / false / 0; structs are never empty. */
export function isEmptyValue(value: unknown, type: FieldType | undefined): boolean {
  if (typeof value === 'string') return value === '' && !isStructScalar(type);
  if (Array.isArray(value)) return value.length === 0;
  if (typeof value === 'boolean') return !value;
  if (typeof value === 'number') return value === 0;
  if (isObject(value)) return type?.kind === 'map' && Object.keys(value).length === 0;
  return false;
}

/**
 * `is.Present`. An absent non-pointer struct field (an amount, a date) is a zero struct in Go,
 * which is not empty, so it is "present"; every other absent value is nil or empty.
 */
export function isPresent(value: unknown, at: At): boolean {
  if (isNil(value)) return at.zero && isStructScalar(at.type);
  return !isEmptyValue(value, at.type);
}

/** `is.Empty`: nil or empty. */
export function isEmpty(value: unknown, at: At): boolean {
  return !isPresent(value, at);
}

/** A string-typed value as Go would read it: nil and absent strings are "". */
export function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** A list as Go would range over it: nil is empty. */
export function list(value: unknown): any[] {
  return Array.isArray(value) ? value : [];
}

export function obj(value: unknown): Record<string, any> | undefined {
  return isObject(value) ? value : undefined;
}

/** `$tags` of a document contain `tag`. */
export function hasTag(doc: unknown, tag: string): boolean {
  const tags = obj(doc)?.$tags;
  return Array.isArray(tags) && tags.includes(tag);
}

/** tax.Extensions lookup: the code for key, or "" when absent. */
export function extCode(ext: unknown, key: string): string {
  const m = obj(ext);
  const v = m ? m[key] : undefined;
  return typeof v === 'string' ? v : '';
}

export function hasExt(ext: unknown, key: string): boolean {
  const m = obj(ext);
  return m !== undefined && typeof m[key] === 'string' && m[key] !== '';
}

/** cbc.Key.Has: the key's `+`-separated parts include part. */
export function keyHas(key: unknown, part: string): boolean {
  return str(key).split('+').includes(part);
}

/** cbc.Key.HasPrefix: the first `+`-separated part is prefix. */
export function keyHasPrefix(key: unknown, prefix: string): boolean {
  return str(key).split('+', 1)[0] === prefix;
}
