// Decimal amounts that behave like GOBL's num.Amount: each carries its own
// exponent (digits after the point), an operation keeps its left operand's
// exponent, and reducing an exponent rounds half away from zero.
//
// `err` bounds how far `value` may be from the figure GOBL held internally:
// zero while a figure is recomputed exactly, positive once a check has had to
// continue from a stated figure that GOBL had rounded (see audit.ts).
import { Decimal } from 'decimal.js';

// Sums and products of GOBL amounts (at most 18 digits each) fit exactly in 80
// significant digits, so the only rounding is the explicit one to an exponent.
// Division truncates its last digit, which can never carry a result across a
// rounding midpoint (a run of 9s that long cannot come from these divisors).
const Exact = Decimal.clone({ precision: 80, rounding: Decimal.ROUND_DOWN });

export type Amount = { readonly value: Decimal; readonly exp: number; readonly err: Decimal };

const AMOUNT_TEXT = /^-?[0-9]+(?:\.([0-9]+))?$/;
const PERCENT_TEXT = /^(-?[0-9]+(?:\.[0-9]+)?)(%?)$/;
const NO_ERROR = new Exact(0);
const ONE = new Exact(1);

export function makeAmount(value: Decimal.Value, exp: number, err: Decimal = NO_ERROR): Amount {
  return { value: new Exact(value), exp, err };
}

export function zeroAmount(exp: number): Amount {
  return makeAmount(0, exp);
}

/** "1800.00" → 1800.00 with exponent 2; anything that is not a decimal string → undefined. */
export function parseAmount(raw: unknown): Amount | undefined {
  if (typeof raw !== 'string') return undefined;
  const match = AMOUNT_TEXT.exec(raw);
  if (!match) return undefined;
  return makeAmount(raw, match[1]?.length ?? 0);
}

/** "21.0%" → 0.21, and GOBL's older plain-ratio form "0.21" → 0.21. */
export function parsePercent(raw: unknown): Decimal | undefined {
  if (typeof raw !== 'string') return undefined;
  const match = PERCENT_TEXT.exec(raw);
  if (!match) return undefined;
  const number = new Exact(match[1]);
  return match[2] === '%' ? number.div(100) : number;
}

export function unit(exp: number): Decimal {
  return new Exact(10).pow(-exp);
}

function roundTo(value: Decimal, exp: number): Decimal {
  return value.toDecimalPlaces(exp, Decimal.ROUND_HALF_UP);
}

// Once a value is only known approximately, every rounding it goes through may
// land one unit away from the one GOBL made.
function taint(err: Decimal, exp: number): Decimal {
  return err.isZero() ? err : err.plus(unit(exp));
}

export function rescale(a: Amount, exp: number): Amount {
  if (exp >= a.exp) return { value: a.value, exp, err: a.err };
  return { value: roundTo(a.value, exp), exp, err: taint(a.err, exp) };
}

export function rescaleUp(a: Amount, exp: number): Amount {
  return exp > a.exp ? rescale(a, exp) : a;
}

/** a + b at a's exponent, b rounded to it first (GOBL's Add). */
export function add(a: Amount, b: Amount): Amount {
  const right = rescale(b, a.exp);
  // An approximate left side may stand for a figure GOBL held with more
  // decimals, in which case GOBL did not round b at all.
  const err = b.exp > a.exp ? taint(a.err, a.exp) : a.err;
  return { value: a.value.plus(right.value), exp: a.exp, err: err.plus(right.err) };
}

export function subtract(a: Amount, b: Amount): Amount {
  return add(a, negate(b));
}

export function negate(a: Amount): Amount {
  return { value: a.value.neg(), exp: a.exp, err: a.err };
}

/** a × factor rounded to a's exponent (GOBL's Multiply). */
export function times(a: Amount, factor: Decimal): Amount {
  const err = a.err.times(factor.abs());
  return { value: roundTo(a.value.times(factor), a.exp), exp: a.exp, err: taint(err, a.exp) };
}

/** percent of a, at a's exponent (GOBL's Percentage.Of). */
export function percentOf(a: Amount, percent: Decimal): Amount {
  return times(a, percent);
}

/** a ÷ divisor rounded to a's exponent (GOBL's Divide); dividing by zero gives zero, as in GOBL. */
export function dividedBy(a: Amount, divisor: Decimal): Amount {
  if (divisor.isZero()) return zeroAmount(a.exp);
  const err = a.err.div(divisor.abs());
  return { value: roundTo(a.value.div(divisor), a.exp), exp: a.exp, err: taint(err, a.exp) };
}

/** The amount before a percentage was added to it (GOBL's Remove). */
export function withoutPercent(a: Amount, percent: Decimal): Amount {
  return dividedBy(a, ONE.plus(percent));
}

function isExact(a: Amount): boolean {
  return a.err.isZero();
}

/**
 * Whether a stated figure is what the recomputed one gives at the stated
 * figure's own precision. With an approximate recomputation, any figure within
 * its error bound counts: the check must not report what it cannot be sure of.
 */
export function agrees(stated: Amount, expected: Amount): boolean {
  if (isExact(expected)) return roundTo(expected.value, stated.exp).eq(stated.value);
  const slack = expected.err.plus(unit(stated.exp).div(2));
  return expected.value.minus(stated.value).abs().lte(slack);
}

/** The amount written with exactly `exp` decimals, e.g. for "is 1800.00 but … = 1790.00". */
export function formatAmount(a: Amount, exp: number): string {
  return roundTo(a.value, exp).toFixed(exp);
}

/**
 * An intermediate figure written as GOBL holds it, but without the trailing
 * zeros of its extra precision: 1800.0000 → "1800.00", 29.9667 → "29.9667".
 */
export function showAmount(a: Amount, minExp: number): string {
  const text = formatAmount(a, a.exp);
  const point = text.indexOf('.');
  if (point < 0) return text;
  let end = text.length;
  while (end > point + 1 + minExp && text[end - 1] === '0') end--;
  if (end === point + 1) end = point;
  return text.slice(0, end);
}
