// Reading a decimal the way GOBL's AmountFromString does: an optional "-", digits, and optionally
// "." and more digits. At most 18 significant digits: surplus decimals are truncated (not
// rounded); an integer part with more than 18 significant digits is refused. JSON numbers reach
// us already parsed, so they are read in their shortest decimal form (20.000000 → "20").
import type { Mantissa } from './mantissa.ts';

/** Digits an int64 mantissa always holds, as GOBL counts them. */
export const MAX_DIGITS = 18;

const ZERO = 48;
const NINE = 57;

function allDigits(s: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const c = s.charCodeAt(i);
    if (c < ZERO || c > NINE) return false;
  }
  return true;
}

/** A finite number in plain decimal notation, expanding JavaScript's exponent form (1e-7, 1e+21). */
export function plainDecimal(n: number): string {
  if (!Number.isFinite(n)) throw new Error(`amount ${String(n)} is not a finite number`);
  const s = String(n);
  const e = s.indexOf('e');
  if (e < 0) return s;
  const neg = s.startsWith('-');
  const mantissa = s.slice(neg ? 1 : 0, e);
  const power = Number(s.slice(e + 1));
  const dot = mantissa.indexOf('.');
  const digits = dot < 0 ? mantissa : mantissa.slice(0, dot) + mantissa.slice(dot + 1);
  const point = (dot < 0 ? mantissa.length : dot) + power; // position of the decimal point in `digits`
  let out: string;
  if (point <= 0) out = `0.${'0'.repeat(-point)}${digits}`;
  else if (point >= digits.length) out = digits + '0'.repeat(point - digits.length);
  else out = `${digits.slice(0, point)}.${digits.slice(point)}`;
  return (neg ? '-' : '') + out;
}

/** [mantissa, exponent] of a decimal string or JSON number. Throws an Error naming the input. */
export function parseDecimal(input: string | number): [Mantissa, number] {
  const s = typeof input === 'number' ? plainDecimal(input) : input;
  if (typeof s !== 'string') throw new Error(`amount must be a string or a number, not ${typeof input}`);
  const neg = s.charCodeAt(0) === 45; // '-'
  const start = neg ? 1 : 0;
  let dot = s.indexOf('.', start);
  const end = s.length;
  const intEnd = dot < 0 ? end : dot;
  if (intEnd === start || !allDigits(s, start, intEnd) || (dot >= 0 && !allDigits(s, dot + 1, end))) {
    throw new Error(`invalid amount '${s}': expected digits with an optional '-' and one '.'`);
  }
  let lead = start;
  while (lead < intEnd - 1 && s.charCodeAt(lead) === ZERO) lead++;
  const intDigits = s.slice(lead, intEnd);
  const significant = intDigits === '0' ? 0 : intDigits.length;
  if (significant > MAX_DIGITS) {
    throw new Error(`amount '${s}' has too many digits (${significant}), maximum is ${MAX_DIGITS}`);
  }
  let decimals = dot < 0 ? '' : s.slice(dot + 1);
  if (decimals.length > MAX_DIGITS - significant) decimals = decimals.slice(0, MAX_DIGITS - significant);
  if (decimals.length === 0) dot = -1;
  const digits = (significant === 0 ? '' : intDigits) + decimals;
  let m: Mantissa;
  if (digits.length === 0) m = 0;
  else if (digits.length <= 15) m = Number(digits);
  else {
    const big = BigInt(digits);
    m = big <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(big) : big;
  }
  if (neg) m = typeof m === 'number' ? (m === 0 ? 0 : -m) : -m;
  return [m, dot < 0 ? 0 : decimals.length];
}
