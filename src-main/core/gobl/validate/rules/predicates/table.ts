// How predicate files describe themselves: a table from the name a test or guard is rendered
// with in the rules data to its check. A key may be qualified by the GOBL type of the set it
// is used in (`org.Identity valid`) where one package uses the same name for two functions.
import type { Check } from '../model.ts';

export type PredicateTable = Readonly<Record<string, Check>>;

/** A check on a code string that is present (GOBL guards these with AssertIfPresent). */
export function onCode(valid: (code: string) => boolean): Check {
  return (v) => typeof v === 'string' && v !== '' && valid(v);
}

/** Digits of a numeric string. */
export function digits(code: string): number[] {
  return [...code].map((c) => c.charCodeAt(0) - 48);
}

/** Σ digit × weight over the first weights.length digits. */
export function weightedSum(code: string, weights: readonly number[]): number {
  let sum = 0;
  for (let i = 0; i < weights.length; i++) sum += (code.charCodeAt(i) - 48) * weights[i];
  return sum;
}

export function allDigits(code: string): boolean {
  return /^\d+$/.test(code);
}

/** Go's strconv.Atoi with the error ignored: a plain integer, or 0. */
export function atoi(text: string): number {
  return /^[+-]?\d+$/.test(text) ? Number.parseInt(text, 10) : 0;
}
