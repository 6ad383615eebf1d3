// Civil dates compared as GOBL's cal.DateBefore / cal.DateAfter tests do. ISO dates order
// lexically; a missing date is Go's zero date, before every real one.
import { str } from '../values.ts';

export function civilDate(value: unknown): string {
  return str(value) || '0000-00-00';
}

/** cal.DateBefore(limit).Check(date): the date is on or before the limit. */
export function notAfter(date: unknown, limit: unknown): boolean {
  return civilDate(date) <= civilDate(limit);
}

/** cal.DateAfter(limit).Check(date): the date is on or after the limit. */
export function notBefore(date: unknown, limit: unknown): boolean {
  return civilDate(date) >= civilDate(limit);
}
