// Questions several addons ask about an invoice (bill.Invoice) and its parts.
import { extCode, hasTag, list, obj, str } from '../values.ts';

/** inv.Tax.GetExt(key) */
export function taxExt(inv: unknown, key: string): string {
  return extCode(obj(obj(inv)?.tax)?.ext, key);
}

/** An invoice not tagged `simplified` (false for anything that is not an invoice). */
export function notSimplified(v: unknown): boolean {
  return obj(v) !== undefined && !hasTag(v, 'simplified');
}

export function isSimplified(v: unknown): boolean {
  return obj(v) !== undefined && hasTag(v, 'simplified');
}

/** A tax combo of the category. */
export function comboCategoryIs(v: unknown, cat: string): boolean {
  return str(obj(v)?.cat) === cat;
}

/** A line whose taxes include the category. */
export function lineHasCategory(v: unknown, cat: string): boolean {
  return list(obj(v)?.taxes).some((c) => str(obj(c)?.cat) === cat);
}

/** A note with the key (org.Note). */
export function noteKeyIs(v: unknown, key: string): boolean {
  return str(obj(v)?.key) === key;
}
