// GOBL's generic tests, recognised from the text they render to in the rules data (the
// `String()` of rules/is, num, cal, uuid, cbc, tax extension and identity tests). Each entry
// reads one description and returns the check; named domain predicates live in predicates/.
import { goRegExp } from '../go-regexp.ts';
import { compileExpr, looksLikeExpr } from './expr.ts';
import { compareDec, decSign, parseDec, ZERO } from './decimal.ts';
import type { Dec } from './decimal.ts';
import type { At, Check } from './model.ts';
import { isEmptyValue, isNil, isObject, isPresent, isStructScalar, keyHasPrefix, list, obj, str } from './values.ts';
import { isEmail, isUrl, isValidUuid, uuidVersion } from './formats.ts';

/** `[a, b, c]` → ['a','b','c'] (also the `,`-joined form regime/addon guards use). */
export function parseList(text: string): string[] {
  const inner = text.trim().replace(/^\[/, '').replace(/\]$/, '').trim();
  return inner === '' ? [] : inner.split(',').map((s) => s.trim());
}

// ----- presence -----

const present: Check = (v, at) => isPresent(v, at);
const empty: Check = (v, at) => !isPresent(v, at);
const nil: Check = (v) => isNil(v);
const nilOrNotEmpty: Check = (v, at) => isNil(v) || !isEmptyValue(v, at.type);

// Go strings are values: an absent one is "", which `is.In` compares (GOBL's string-typed
// fields are not pointers). Other absent values are nil pointers, which `is.In` skips.
function scalarOf(v: unknown, at: At): unknown {
  if (isNil(v)) return at.type?.kind === 'scalar' && at.type.scalar === 'string' && !isStructScalar(at.type) ? '' : undefined;
  return v;
}

// A tax.Set value, also when nil: GOBL's set tests type-check a nil set as an empty one.
function taxSet(v: unknown, at: At): unknown[] | undefined {
  if (Array.isArray(v)) return v;
  return isNil(v) && at.type?.type === 'tax.Set' ? [] : undefined;
}

function inList(values: string[]): Check {
  const set = new Set(values);
  return (v, at) => {
    // tax.SetHasOneOf renders the same way: on a tax set it asks for one of the categories
    const combos = taxSet(v, at);
    if (combos) return combos.some((c) => set.has(str(obj(c)?.cat)));
    const x = scalarOf(v, at);
    return x === undefined || set.has(String(x));
  };
}

function notInList(values: string[]): Check {
  const set = new Set(values);
  return (v, at) => {
    const x = scalarOf(v, at);
    return x === undefined || !set.has(String(x));
  };
}

/** tax.SetHasCategory: every category is in the tax set. */
function setHasAll(cats: string[]): Check {
  return (v, at) => {
    const combos = taxSet(v, at);
    return !combos || cats.every((c) => combos.some((combo) => str(obj(combo)?.cat) === c));
  };
}

function matches(pattern: string): Check {
  const re = goRegExp(pattern);
  return (v) => {
    if (isNil(v)) return true;
    if (typeof v !== 'string') return false;
    return v === '' || re.test(v);
  };
}

// Go's len(string) counts UTF-8 bytes.
function utf8Length(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x80) n += c < 0x800 ? 1 : c >= 0xd800 && c <= 0xdfff ? 1 : 2; // a surrogate pair is 4 bytes
  }
  return n;
}

// What [...s].length counts (a surrogate pair is one), without the array.
function runeLength(s: string): number {
  let n = s.length;
  for (let i = 0; i + 1 < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const next = s.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}

function lengthOf(v: unknown, runes: boolean): number | undefined {
  if (typeof v === 'string') return runes ? runeLength(v) : utf8Length(v);
  if (Array.isArray(v)) return v.length;
  if (isObject(v)) return Object.keys(v).length;
  return undefined;
}

function lengthBetween(min: number, max: number, runes: boolean): Check {
  return (v, at) => {
    if (isNil(v) || isEmptyValue(v, at.type)) return true;
    const l = lengthOf(v, runes);
    if (l === undefined) return false;
    return (min === 0 || l >= min) && (max === 0 || l <= max) && (min !== 0 || max !== 0 || l === 0);
  };
}

// rules/is Min/Max: plain numbers; nil and zero values are skipped.
function numberBound(op: string, threshold: number): Check {
  return (v) => {
    if (isNil(v) || v === 0) return true;
    if (typeof v !== 'number') return false;
    switch (op) {
      case 'at least':
        return v >= threshold;
      case 'greater than':
        return v > threshold;
      case 'at most':
        return v <= threshold;
      default:
        return v < threshold;
    }
  };
}

// num.ThresholdRule on amounts and percentages: nil skipped, an absent non-pointer is zero.
function amountBound(op: 'min' | 'max' | 'equals' | 'not zero', threshold: Dec, exclusive: boolean): Check {
  // Against zero, the comparison is the value's sign.
  const compared: (v: unknown) => number | undefined = threshold.m === 0n
    ? decSign
    : (v) => {
      const value = parseDec(v);
      return value && compareDec(value, threshold);
    };
  return (v, at) => {
    let cmp: number | undefined;
    if (isNil(v)) {
      if (!at.zero) return true;
      cmp = compareDec(ZERO, threshold);
    } else {
      cmp = compared(v);
      if (cmp === undefined) return false;
    }
    switch (op) {
      case 'min':
        return exclusive ? cmp > 0 : cmp >= 0;
      case 'max':
        return exclusive ? cmp < 0 : cmp <= 0;
      case 'equals':
        return cmp === 0;
      default:
        return cmp !== 0;
    }
  };
}

const ZERO_DATES = new Set(['', '0000-00-00', '0000-00-00T00:00:00']);

/** `not zero` is cal.DateNotZero (and its DateTime/Timestamp twins) or num.NotZero, by type. */
const notZero: Check = (v, at) => {
  const type = at.type?.type;
  if (type === 'cal.Date' || type === 'cal.DateTime' || type === 'cal.Timestamp') {
    if (isNil(v)) return !at.zero;
    return !ZERO_DATES.has(str(v));
  }
  return amountNotZero(v, at);
};

const amountNotZero = amountBound('not zero', ZERO, false);

// ----- extensions (tax.ExtensionsRule and tax.ExtensionHasValidCode) -----

function extMap(v: unknown): Record<string, any> | undefined {
  if (isNil(v)) return {};
  return isObject(v) ? v : undefined;
}

function extHas(m: Record<string, any>, key: string): boolean {
  return m[key] !== undefined && m[key] !== null;
}

function extRequire(keys: string[]): Check {
  return (v) => {
    const m = extMap(v);
    return !m || keys.every((k) => extHas(m, k));
  };
}

function extRequireAllOrNone(keys: string[]): Check {
  return (v) => {
    const m = extMap(v);
    if (!m) return true;
    const n = keys.filter((k) => extHas(m, k)).length;
    return n === 0 || n === keys.length;
  };
}

function extExclude(keys: string[]): Check {
  return (v) => {
    const m = extMap(v);
    return !m || !keys.some((k) => extHas(m, k));
  };
}

function extAllowOneOf(keys: string[]): Check {
  return (v) => {
    const m = extMap(v);
    return !m || keys.filter((k) => extHas(m, k)).length <= 1;
  };
}

function extCodeIn(key: string, codes: string[], negate: boolean): Check {
  const set = new Set(codes);
  return (v) => {
    const m = extMap(v);
    if (!m || !extHas(m, key)) return true;
    return set.has(String(m[key])) !== negate;
  };
}

function extCodeMatches(key: string, pattern: string): Check {
  const re = goRegExp(pattern);
  return (v) => {
    const m = extMap(v);
    if (!m) return false;
    if (!extHas(m, key)) return true;
    const code = String(m[key]);
    return code === '' || re.test(code);
  };
}

// ----- identities (org.IdentityTypeIn & co) and tax identities -----

type IdentityField = 'type' | 'key';

// One test type in Go: it takes a single identity or a list (any of them matching).
function identityMatch(field: IdentityField, values: string[]): Check {
  const set = new Set(values);
  const one = (id: unknown): boolean => set.has(str(obj(id)?.[field]));
  return (v) => (Array.isArray(v) ? v.some(one) : isObject(v) && one(v));
}

function identityExtIn(key: string, values: string[]): Check {
  const set = new Set(values);
  const one = (id: unknown): boolean => set.has(str(obj(obj(id)?.ext)?.[key]));
  return (v) => (Array.isArray(v) ? v.some(one) : isObject(v) && one(v));
}

// `code in [..]` checks and their codes: a node's sets guarded by them can be looked up by the
// node's code (see codeInKey) instead of each guard being asked.
const codeInChecks = new WeakMap<Check, readonly string[]>();

/** The codes of a `code in [..]` check; undefined for any other check. */
export function codeInValues(check: Check): readonly string[] | undefined {
  return codeInChecks.get(check);
}

/** What a `code in [..]` check compares with its codes: an identity's country, or a code itself. */
export function codeInKey(v: unknown): string | undefined {
  if (isObject(v)) return str(v.country);
  return typeof v === 'string' ? v : undefined;
}

/** `code in [..]`: tax.IdentityIn on an identity (its country), cbc.InCodes on a code. */
function codeIn(values: string[]): Check {
  const set = new Set(values);
  const check: Check = (v) => {
    const key = codeInKey(v);
    return key !== undefined && set.has(key);
  };
  codeInChecks.set(check, values);
  return check;
}

// ----- document-level tests from bill, currency, cbc, tax -----

function fieldIn(field: string, values: string[]): Check {
  const set = new Set(values);
  return (v) => isObject(v) && set.has(str(v[field]));
}

function canConvertTo(codes: string[]): Check {
  const set = new Set(codes);
  return (v) => {
    if (!isObject(v)) return false;
    const cur = str(v.currency);
    if (set.has(cur)) return true;
    return list(v.exchange_rates).some((r) => str(obj(r)?.from) === cur && set.has(str(obj(r)?.to)));
  };
}

function haveKeys(keys: string[]): Check {
  return (v) => isObject(v) && keys.every((k) => k in v);
}

function keyPrefixIn(keys: string[]): Check {
  return (v) => typeof v === 'string' && v !== '' && keys.some((k) => keyHasPrefix(v, k));
}

// The checks that read nothing but the context (regime, addons): the same answer for every
// value of one validation run, so the walker asks them once per run.
const contextChecks = new WeakSet<Check>();

export function isContextCheck(check: Check): boolean {
  return contextChecks.has(check);
}

function contextTest(inner: string): Check | undefined {
  let check: Check | undefined;
  let m = /^regime in (\[.*\])$/.exec(inner);
  if (m) {
    const set = new Set(parseList(m[1]));
    check = (_v, at) => set.has(at.ctx.regime);
  }
  m = /^addon in (\[.*\])$/.exec(inner);
  if (m) {
    const keys = parseList(m[1]);
    check = (_v, at) => keys.some((k) => at.ctx.addons.includes(k));
  }
  if (check) contextChecks.add(check);
  return check;
}

// ----- uuid.VersionTest -----

function uuidTest(accept?: (version: number) => boolean): Check {
  return (v) => {
    if (isNil(v) || v === '') return true;
    if (typeof v !== 'string' || !isValidUuid(v)) return false;
    return !accept || accept(uuidVersion(v));
  };
}

const FIXED: Record<string, Check> = {
  present,
  empty,
  nil,
  'nil or not empty': nilOrNotEmpty,
  'not zero': notZero,
  url: (v) => typeof v === 'string' && isUrl(v),
  'email-format': (v) => typeof v === 'string' && isEmail(v),
  'is valid UUID': uuidTest(),
  'has timestamp': uuidTest((ver) => ver === 1 || ver === 6 || ver === 7),
  'is timeless': uuidTest((ver) => ver === 3 || ver === 4 || ver === 5),
  'is UUIDv1': uuidTest((ver) => ver === 1),
  'is UUIDv4': uuidTest((ver) => ver === 4),
  'is UUIDv7': uuidTest((ver) => ver === 7),
};

type Reader = [RegExp, (m: RegExpExecArray, exclusive: boolean) => Check | undefined];

const READERS: Reader[] = [
  [/^context: (.*)$/, (m) => contextTest(m[1])],
  [/^regime in (\[.*\])$/, (m) => fieldIn('$regime', parseList(m[1]))],
  [/^one of (\[.*\])$/, (m) => inList(parseList(m[1]))],
  [/^not one of (\[.*\])$/, (m) => notInList(parseList(m[1]))],
  [/^all of (\[.*\])$/, (m) => setHasAll(parseList(m[1]))],
  [/^matches (.*)$/s, (m) => matches(m[1])],
  [/^(rune )?length between (\d+) and (\d+)$/, (m) => lengthBetween(Number(m[2]), Number(m[3]), m[1] !== undefined)],
  [/^(at least|at most|greater than|less than) (-?\d+(?:\.\d+)?)$/, (m) => numberBound(m[1], Number(m[2]))],
  [/^(min|max|equals) (\S+)$/, (m, exclusive) => {
    const threshold = parseDec(m[2]);
    return threshold && amountBound(m[1] as 'min' | 'max' | 'equals', threshold, exclusive);
  }],
  [/^ext require all or none of (\[.*\])$/, (m) => extRequireAllOrNone(parseList(m[1]))],
  [/^ext require (\[.*\])$/, (m) => extRequire(parseList(m[1]))],
  [/^ext exclude (\[.*\])$/, (m) => extExclude(parseList(m[1]))],
  [/^ext allow one of (\[.*\])$/, (m) => extAllowOneOf(parseList(m[1]))],
  [/^ext '([^']+)' (not )?in (\[.*\])$/, (m) => extCodeIn(m[1], parseList(m[3]), m[2] !== undefined)],
  [/^ext '([^']+)' matches pattern '(.*)'$/, (m) => extCodeMatches(m[1], m[2])],
  [/^invoice type in (\[.*\])$/, (m) => fieldIn('type', parseList(m[1]))],
  [/^payment type in (\[.*\])$/, (m) => fieldIn('type', parseList(m[1]))],
  [/^status type in (\[.*\])$/, (m) => fieldIn('type', parseList(m[1]))],
  [/^status line key in (\[.*\])$/, (m) => fieldIn('key', parseList(m[1]))],
  [/^code in (\[.*\])$/, (m) => codeIn(parseList(m[1]))],
  [/^(type|key) in (\[.*\])$/, (m) => identityMatch(m[1] as IdentityField, parseList(m[2]))],
  [/^has a (type|key) in (\[.*\])$/, (m) => identityMatch(m[1] as IdentityField, parseList(m[2]))],
  [/^has a ext \[([^\]]+)\] in (\[.*\])$/, (m) => identityExtIn(m[1], parseList(m[2]))],
  [/^has addon (\S+)$/, (m) => (v) => list(obj(v)?.$addons).includes(m[1])],
  [/^can convert to (\[.*\])$/, (m) => canConvertTo(parseList(m[1]))],
  [/^have keys (\[.*\])$/, (m) => haveKeys(parseList(m[1]))],
  [/^be or starts with one of (\[.*\])$/, (m) => keyPrefixIn(parseList(m[1]))],
  [/^stamps have (\S+)$/, (m) => (v) => list(v).some((s) => str(obj(s)?.prv) === m[1])],
  // bill.RequireLineTaxCategory: a line's taxes include the category
  [/^line has tax category (\S+)$/, (m) => (v) => !isObject(v) || list(v.taxes).some((c) => str(obj(c)?.cat) === m[1])],
];

/**
 * The check for one generic test description, or undefined when the text is not one of
 * GOBL's generic tests. `exclusive` marks a `min`/`max` that GOBL built with Exclusive():
 * `num.Positive` renders as "min 0" just like `num.ZeroOrPositive`.
 */
export function genericCheck(text: string, exclusive = false): Check | undefined {
  const fixed = FIXED[text];
  if (fixed) return fixed;
  for (const [re, make] of READERS) {
    const m = re.exec(text);
    if (m) return make(m, exclusive);
  }
  if (looksLikeExpr(text)) {
    const e = compileExpr(text);
    return (v) => e(v);
  }
  return undefined;
}
