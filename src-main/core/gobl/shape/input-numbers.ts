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

const PLAIN_AMOUNT = /^-?(0|[1-9][0-9]*)(?:\.([0-9]+))?$/;

/**
 * Most amounts arrive as GOBL writes them (`"1800.00"`, `"-3"`): no leading zero, no `+`, no
 * trailing `.`, a sign only on a non-zero value, and digits within the 18 GOBL keeps. Such a
 * text reads back as itself, so it needs no arithmetic.
 */
function isCanonicalAmount(text: string): boolean {
  const m = PLAIN_AMOUNT.exec(text);
  if (!m) return false;
  const majorDigits = m[1] === '0' ? 0 : m[1].length;
  const decimals = m[2]?.length ?? 0;
  if (majorDigits + decimals > AMOUNT_MAX_DIGITS) return false;
  return !text.startsWith('-') || /[1-9]/.test(text);
}

/**
 * The canonical percentage string GOBL writes for the JSON token text of a percentage.
 * With `%` the number is a percent (`"21.0%"` stays `"21.0%"`); without it the number is
 * the ratio itself (`"0.21"` → `"21%"`, the JSON number `21` → `"2100%"`).
 */
export function canonicalPercentage(token: string): string {
  if (token.endsWith('%')) return `${canonicalAmount(token.slice(0, -1))}%`;
  const ratio = parseAmountText(token);
  // Printing multiplies the ratio by 100 and drops two decimals (exactly: none are lost).
  const exp = Math.max(ratio.exp - 2, 0);
  const value = ratio.exp >= 2 ? ratio.value : ratio.value * 10n ** BigInt(2 - ratio.exp);
  return `${formatAmount({ value, exp })}%`;
}
