// How GOBL reads an amount or a percentage from JSON (`num.Amount` / `num.Percentage`
// UnmarshalJSON), reproduced on the source text so that the tree gets the same canonical
// string GOBL would print back. GOBL takes the raw JSON token: a string without its quotes
// or a number's literal text, so `10.50` keeps two decimals and `1e5` is refused.

/** GOBL's limit on significant digits (integer and decimal together) in an amount. */
export const AMOUNT_MAX_DIGITS = 18;

export interface ParsedAmount {
  /** The integer mantissa: `"12.50"` → 1250n. */
  value: bigint;
  /** The number of decimals: `"12.50"` → 2. */
  exp: number;
}

/** A refusal, with the reason in words. */
export class NumberInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NumberInputError';
  }
}

// Go's strconv.ParseInt base 10: an optional sign, then one or more ASCII digits.
function parseGoInt(text: string, whole: string, part: 'major' | 'decimal'): bigint {
  if (!/^[+-]?[0-9]+$/.test(text)) {
    throw new NumberInputError(`invalid ${part} number '${whole}'`);
  }
  const value = BigInt(text);
  if (value > 9223372036854775807n || value < -9223372036854775808n) {
    throw new NumberInputError(`invalid ${part} number '${whole}', value out of range`);
  }
  return value;
}

/** GOBL's `AmountFromString`: at most one `.`, ≤ 18 integer digits, extra decimals truncated. */
export function parseAmountText(text: string): ParsedAmount {
  const negative = text.startsWith('-');
  const parts = (negative ? text.slice(1) : text).split('.');
  if (parts.length > 2) throw new NumberInputError(`amount must contain 0 or 1 decimal separators: ${text}`);
  const major = parts[0];
  let decimals: string | undefined = parts[1];
  const sigMajor = major.replace(/^0+/, '').length;
  if (sigMajor > AMOUNT_MAX_DIGITS) {
    throw new NumberInputError(`amount '${text}' has too many digits (${sigMajor}), maximum is ${AMOUNT_MAX_DIGITS}`);
  }
  if (decimals !== undefined) {
    const maxDecimals = AMOUNT_MAX_DIGITS - sigMajor;
    if (decimals.length > maxDecimals) decimals = decimals.slice(0, maxDecimals);
    if (decimals.length === 0) decimals = undefined;
  }
  let value = parseGoInt(major, text, 'major');
  let exp = 0;
  if (decimals !== undefined) {
    const fraction = parseGoInt(decimals, text, 'decimal');
    exp = decimals.length;
    value = value * 10n ** BigInt(exp) + fraction;
  }
  return { value: negative ? -value : value, exp };
}

/** GOBL's `Amount.String()`: the mantissa with `exp` decimals, and no sign on zero. */
export function formatAmount(amount: ParsedAmount): string {
  const { value, exp } = amount;
  if (exp === 0) return value.toString();
  const abs = value < 0n ? -value : value;
  const digits = abs.toString().padStart(exp + 1, '0');
  const sign = value < 0n ? '-' : '';
  return `${sign}${digits.slice(0, -exp)}.${digits.slice(-exp)}`;
}

/** The canonical amount string GOBL writes for the JSON token text of an amount. */
export function canonicalAmount(token: string): string {
  if (isCanonicalAmount(token)) return token;
  return formatAmount(parseAmountText(token));
}

const isDigit = (c: number): boolean => c >= 48 && c <= 57;

/**
 * Most amounts arrive as GOBL writes them (`"1800.00"`, `"-3"`): no leading zero, no `+`, no
 * trailing `.`, a sign only on a non-zero value, and digits within the 18 GOBL keeps. Such a
 * text reads back as itself, so it needs no arithmetic. `text` up to `end` is read as
 * `/^-?(0|[1-9][0-9]*)(?:\.([0-9]+))?$/` would read it, character by character: every
 * amount of every document comes through here.
 */
function isCanonicalAmount(text: string, end = text.length): boolean {
  const negative = end > 0 && text.charCodeAt(0) === 45;
  let i = negative ? 1 : 0;
  if (i >= end) return false;
  const first = text.charCodeAt(i++);
  if (first !== 48) {
    if (!isDigit(first)) return false;
    while (i < end && isDigit(text.charCodeAt(i))) i++;
  }
  const majorDigits = first === 48 ? 0 : i - (negative ? 1 : 0);
  let decimals = 0;
  if (i < end) {
    if (text.charCodeAt(i++) !== 46) return false;
    const start = i;
    while (i < end && isDigit(text.charCodeAt(i))) i++;
    decimals = i - start;
    if (decimals === 0 || i !== end) return false;
  }
  if (majorDigits + decimals > AMOUNT_MAX_DIGITS) return false;
  if (!negative) return true;
  // "-0" and "-0.00" are not GOBL's: zero has no sign.
  for (let j = 1; j < end; j++) {
    const c = text.charCodeAt(j);
    if (c >= 49 && c <= 57) return true;
  }
  return false;
}

/**
 * The canonical percentage string GOBL writes for the JSON token text of a percentage.
 * With `%` the number is a percent (`"21.0%"` stays `"21.0%"`); without it the number is
 * the ratio itself (`"0.21"` → `"21%"`, the JSON number `21` → `"2100%"`).
 */
export function canonicalPercentage(token: string): string {
  if (token.endsWith('%')) return isCanonicalAmount(token, token.length - 1) ? token : `${canonicalAmount(token.slice(0, -1))}%`;
  const ratio = parseAmountText(token);
  // Printing multiplies the ratio by 100 and drops two decimals (exactly: none are lost).
  const exp = Math.max(ratio.exp - 2, 0);
  const value = ratio.exp >= 2 ? ratio.value : ratio.value * 10n ** BigInt(2 - ratio.exp);
  return `${formatAmount({ value, exp })}%`;
}
