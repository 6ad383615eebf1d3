// Turns the test and guard descriptions of the rules data into checks. An assertion's `tests`
// is GOBL's tests joined with ", " (an `is.Or` joins its own with ", or "), so a description is
// first looked up whole among the named predicates (some names contain commas), then split at
// top-level commas and each part read as a named predicate or a generic test.
import type { Check, Origin } from './model.ts';
import { genericCheck } from './vocabulary.ts';
import { exclusiveBound, namedPredicate } from './predicates/index.ts';

export interface UnknownText {
  text: string;
  origin: Origin;
  id?: string;
}

// Texts no reader understood. Validation treats them as passing; the rules-data test walks
// every file and requires this list to stay empty.
const unknown: UnknownText[] = [];

export function unknownTexts(): readonly UnknownText[] {
  return unknown;
}

/** Splits at ", " outside brackets and quotes. */
export function splitTests(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quote = '';
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === quote) quote = '';
      continue;
    }
    if (c === "'" && (i === 0 || text[i - 1] === ' ')) quote = c;
    else if (c === '[') depth++;
    else if (c === ']') depth--;
    else if (depth === 0 && c === ',' && text[i + 1] === ' ') {
      parts.push(text.slice(start, i));
      start = i + 2;
      i++;
    }
  }
  parts.push(text.slice(start));
  return parts;
}

function single(text: string, origin: Origin, id: string | undefined): Check | undefined {
  return namedPredicate(origin, text, id) ?? genericCheck(text, id !== undefined && exclusiveBound(id));
}

function any(checks: Check[]): Check {
  return (v, at) => checks.some((c) => c(v, at));
}

function readAll(text: string, origin: Origin, id: string | undefined): Check[] | undefined {
  // only a named predicate may contain ", " (a generic `matches` would swallow the rest)
  const whole = namedPredicate(origin, text, id);
  if (whole) return [whole];
  const parts = splitTests(text);
  const checks: Check[] = [];
  const alternatives: Check[] = [];
  for (let i = 0; i < parts.length; i++) {
    const isAlt = parts[i].startsWith('or ');
    const check = single(isAlt ? parts[i].slice(3) : parts[i], origin, id);
    if (!check) return undefined;
    const nextIsAlt = parts[i + 1]?.startsWith('or ') ?? false;
    if (isAlt || nextIsAlt) {
      alternatives.push(check);
      if (!nextIsAlt) {
        checks.push(any(alternatives.splice(0)));
      }
    } else {
      checks.push(check);
    }
  }
  return checks;
}

/** The checks of an assertion: all must pass, in order. */
export function compileTests(text: string, origin: Origin, id: string): Check[] {
  const checks = readAll(text, origin, id);
  if (checks) return checks;
  unknown.push({ text, origin, id });
  return [() => true];
}

/** The check of a set's guard. */
export function compileGuard(text: string, origin: Origin): Check {
  const checks = readAll(text, origin, undefined);
  if (checks && checks.length === 1) return checks[0];
  unknown.push({ text, origin });
  return () => false;
}
