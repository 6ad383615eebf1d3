// GOBL's string and code cleaners (cbc.NormalizeString, cbc.NormalizeCode and its strict,
// upper, alphanumerical and numerical variants, uuid.Normalize), with Go's notions of
// "space", "printable" and "upper case". Exported for regime and addon normalisers.

// Go's unicode.IsSpace: ASCII white space, NEL, NBSP and the Unicode Z-category spaces
// (unlike JavaScript's trim, it does not include U+FEFF).
const GO_SPACE = '\\t\\n\\v\\f\\r \\u0085\\u00A0\\u1680\\u2000-\\u200A\\u2028\\u2029\\u202F\\u205F\\u3000';
const LEADING_SPACE = new RegExp(`^[${GO_SPACE}]+`);
const TRAILING_SPACE = new RegExp(`[${GO_SPACE}]+$`);

/** Go's strings.TrimSpace. */
export function goTrimSpace(s: string): string {
  return s.replace(LEADING_SPACE, '').replace(TRAILING_SPACE, '');
}

/** Go's strings.ToUpper: a character whose upper case is not a single character stays as it is. */
export function goToUpper(s: string): string {
  const upper = s.toUpperCase();
  if (upper.length === s.length) return upper;
  let out = '';
  for (const ch of s) {
    const u = ch.toUpperCase();
    out += [...u].length === 1 ? u : ch;
  }
  return out;
}

// A lone surrogate can only come from a JSON `\ud800` escape, which Go decodes as U+FFFD.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** One of the characters in GO_SPACE. */
function isGoSpace(c: number): boolean {
  return c === 0x20 || (c >= 0x09 && c <= 0x0d) || c === 0x85 || c === 0xa0 || c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000;
}

function hasSpaceAtEnds(s: string): boolean {
  return s.length > 0 && (isGoSpace(s.charCodeAt(0)) || isGoSpace(s.charCodeAt(s.length - 1)));
}

/** cbc.NormalizeString: NUL characters removed and surrounding white space trimmed. */
export function normalizeString(s: string): string {
  if (isCleanText(s)) return s;
  return goTrimSpace(s.replace(/\u0000/g, '').replace(LONE_SURROGATE, '\uFFFD'));
}

// Nearly every text is already clean: no NUL, no surrogate (paired or not) and no space at its
// ends, which normalizeString would leave exactly as it is.
function isCleanText(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0 || (c >= 0xd800 && c <= 0xdfff)) return false;
  }
  return !hasSpaceAtEnds(s);
}

// Go's unicode.IsPrint: letters, marks, numbers, punctuation, symbols and the ASCII space.
const NON_PRINTABLE = /[^\p{L}\p{M}\p{N}\p{P}\p{S} ]/gu;

/** cbc.NormalizeCode, applied to every cbc.Code: NFC, non-printable characters removed, trimmed. */
export function normalizeCode(code: string): string {
  if (isPlainAsciiCode(code)) return code;
  return goTrimSpace(code.normalize('NFC').replace(NON_PRINTABLE, ''));
}

// Printable ASCII (U+0020–U+007E) is NFC already and printable in Go's sense, so a code made of
// it, without a space at its ends, is its own normal form. Most codes are.
function isPlainAsciiCode(code: string): boolean {
  for (let i = 0; i < code.length; i++) {
    const c = code.charCodeAt(i);
    if (c < 0x20 || c > 0x7e) return false;
  }
  return !hasSpaceAtEnds(code);
}

const CODE_DIGITS = 'A-ZÑa-z0-9';
const CODE_SEPARATORS = '.\\-:/,_& ';
const REPEATED_SEPARATORS = new RegExp(`([${CODE_SEPARATORS}])[^${CODE_DIGITS}]+`, 'gu');
const INVALID_CODE_CHARS = new RegExp(`[^${CODE_DIGITS}${CODE_SEPARATORS}]+`, 'gu');

/** cbc.NormalizeStrictCode: trimmed, runs of separators collapsed to the first, other characters removed. */
export function normalizeStrictCode(code: string): string {
  return goTrimSpace(code).replace(REPEATED_SEPARATORS, '$1').replace(INVALID_CODE_CHARS, '');
}

/** cbc.NormalizeUpperCode. */
export function normalizeUpperCode(code: string): string {
  return goToUpper(normalizeStrictCode(code));
}

/** cbc.NormalizeAlphanumericalCode: upper case, letters A–Z and digits only. */
export function normalizeAlphanumericalCode(code: string): string {
  return goToUpper(normalizeStrictCode(code)).replace(/[^A-Z0-9]/g, '');
}

/** cbc.NormalizeNumericalCode: digits only. */
export function normalizeNumericalCode(code: string): string {
  return normalizeStrictCode(code).replace(/[^0-9]/g, '');
}

const ZERO_UUID = '00000000-0000-0000-0000-000000000000';

/** uuid.Normalize on a node's `uuid` field: the all-zero UUID means none. */
export function normalizeUuidField(node: Record<string, unknown>, field = 'uuid'): void {
  if (node[field] === ZERO_UUID || node[field] === '') delete node[field];
}

/** Applies cbc.NormalizeString to each named string field present on `node`. */
export function normalizeStringFields(node: Record<string, unknown>, fields: readonly string[]): void {
  for (const field of fields) {
    const value = node[field];
    if (typeof value === 'string') node[field] = normalizeString(value);
  }
}
