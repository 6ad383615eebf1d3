// Just enough exact decimal arithmetic for rule checks (comparisons and sums of amounts and
// percentages written as strings): a BigInt mantissa with a decimal exponent, never floats.

export interface Dec {
  m: bigint;
  e: number;
}

const DECIMAL = /^([+-]?)(\d*)(?:\.(\d*))?$/;

/** `"12.50"` → 1250e-2; `"21%"` → the ratio 0.21; a JSON number is read through its text. */
export function parseDec(raw: unknown): Dec | undefined {
  let text: string;
  if (typeof raw === 'number' && Number.isFinite(raw)) text = String(raw);
  else if (typeof raw === 'string') text = raw.trim();
  else return undefined;
  let shift = 0;
  if (text.endsWith('%')) {
    text = text.slice(0, -1);
    shift = 2;
  }
  const match = DECIMAL.exec(text);
  if (!match || (match[2] === '' && (match[3] ?? '') === '')) return undefined;
  const frac = match[3] ?? '';
  const m = BigInt(`${match[1]}${match[2] || '0'}${frac}`);
  return { m, e: frac.length + shift };
}

/**
 * The sign (−1, 0 or 1) of what parseDec reads, or undefined where it reads nothing, without
 * making a BigInt: most thresholds in GOBL's rules are zero ("min 0", "not zero").
 */
export function decSign(raw: unknown): number | undefined {
  let text: string;
  if (typeof raw === 'number' && Number.isFinite(raw)) text = String(raw);
  else if (typeof raw === 'string') text = raw.trim();
  else return undefined;
  const end = text.endsWith('%') ? text.length - 1 : text.length;
  let i = 0;
  const first = text.charCodeAt(0);
  const negative = first === 45;
  if (negative || first === 43) i++;
  let digits = 0;
  let nonZero = false;
  let point = false;
  for (; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c >= 48 && c <= 57) {
      digits++;
      if (c !== 48) nonZero = true;
    } else if (c === 46 && !point) {
      point = true;
    } else {
      return undefined;
    }
  }
  if (digits === 0) return undefined;
  return nonZero ? (negative ? -1 : 1) : 0;
}

function scaled(a: Dec, e: number): bigint {
  return a.m * 10n ** BigInt(e - a.e);
}

export function compareDec(a: Dec, b: Dec): number {
  const e = Math.max(a.e, b.e);
  const x = scaled(a, e);
  const y = scaled(b, e);
  return x < y ? -1 : x > y ? 1 : 0;
}

export function addDec(a: Dec, b: Dec): Dec {
  const e = Math.max(a.e, b.e);
  return { m: scaled(a, e) + scaled(b, e), e };
}

export function subDec(a: Dec, b: Dec): Dec {
  return addDec(a, { m: -b.m, e: b.e });
}

export function mulDec(a: Dec, b: Dec): Dec {
  return { m: a.m * b.m, e: a.e + b.e };
}

/** Rounds half away from zero to `e` decimals (GOBL's rounding). */
export function roundDec(a: Dec, e: number): Dec {
  if (a.e <= e) return { m: scaled(a, e), e };
  const div = 10n ** BigInt(a.e - e);
  const q = a.m / div;
  const r = a.m % div;
  const twice = (r < 0n ? -r : r) * 2n;
  return { m: twice >= div ? q + (a.m < 0n ? -1n : 1n) : q, e };
}

export const ZERO: Dec = { m: 0n, e: 0 };
