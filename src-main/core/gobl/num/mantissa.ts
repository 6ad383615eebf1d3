// Integer arithmetic for amount mantissas. GOBL holds a mantissa in an int64; we hold it in a JS
// number while it is a safe integer (every operation on those is exact, see roundedDivNumber) and
// in a bigint beyond that. Results are normalised back to a number whenever they fit, so the
// bigint path only runs for amounts above 2^53 in magnitude.

/** A mantissa: a safe integer as a number, or a bigint outside the safe range. */
export type Mantissa = number | bigint;

const INT64_MAX = 9223372036854775807n;
const INT64_MIN = -9223372036854775808n;
const SAFE_MAX = BigInt(Number.MAX_SAFE_INTEGER);
const SAFE_MIN = -SAFE_MAX;

// Powers of ten that doubles hold exactly and whose products with safe integers we check.
const POW10_NUMBER: number[] = [];
for (let i = 0, p = 1; i <= 15; i++, p *= 10) POW10_NUMBER.push(p);
const POW10_BIG: bigint[] = [];

/** 10^e as a number, only for e ≤ 15 (the largest power below 2^53). */
export function pow10Number(e: number): number {
  return POW10_NUMBER[e];
}

export function pow10Big(e: number): bigint {
  let p = POW10_BIG[e];
  if (p === undefined) {
    p = 10n ** BigInt(e);
    if (e < 64) POW10_BIG[e] = p;
  }
  return p;
}

export function toBig(m: Mantissa): bigint {
  return typeof m === 'bigint' ? m : BigInt(m);
}

/** A bigint back to the compact form when it is a safe integer. */
export function compact(v: bigint): Mantissa {
  return v >= SAFE_MIN && v <= SAFE_MAX ? Number(v) : v;
}

/**
 * n / d rounded half away from zero, for safe integers with d ≠ 0. Exact: `%` on doubles is
 * exact, n − r is an exact multiple of d, and dividing an exact multiple is exact.
 */
export function roundedDivNumber(n: number, d: number): number {
  const r = n % d;
  let q = (n - r) / d;
  if (2 * Math.abs(r) >= Math.abs(d)) q += (n < 0) === (d < 0) ? 1 : -1;
  return q === 0 ? 0 : q; // never -0
}

/** n / d rounded half away from zero, d ≠ 0. */
export function roundedDivBig(n: bigint, d: bigint): bigint {
  const q = n / d; // truncates toward zero
  const r = n - q * d;
  const twice = (r < 0n ? -r : r) * 2n;
  if (twice >= (d < 0n ? -d : d)) return (n < 0n) === (d < 0n) ? q + 1n : q - 1n;
  return q;
}

/** -m, never producing -0. */
export function negateMantissa(m: Mantissa): Mantissa {
  if (typeof m === 'number') return m === 0 ? 0 : -m;
  return compact(-m);
}

/**
 * A result at `exp` decimals made to fit an int64, as GOBL does: when it is too large, decimals
 * are dropped (with rounding) until it fits or none are left; an integer part beyond int64
 * saturates at the boundary.
 */
export function fitInt64(v: bigint, exp: number): [Mantissa, number] {
  if (v <= INT64_MAX && v >= INT64_MIN) return [compact(v), exp];
  let drop = 0;
  let probe = v;
  while ((probe > INT64_MAX || probe < INT64_MIN) && drop < exp) {
    probe /= 10n;
    drop++;
  }
  if (drop > 0) {
    v = roundedDivBig(v, pow10Big(drop));
    exp -= drop;
  }
  if (v > INT64_MAX) return [INT64_MAX, exp];
  if (v < INT64_MIN) return [INT64_MIN, exp];
  return [compact(v), exp];
}

/**
 * m (at exponent `from`) expressed at exponent `to`: multiplied exactly when widening, rounded
 * half away from zero when narrowing. Unbounded (the caller fits the result).
 */
export function rescaleBig(m: Mantissa, from: number, to: number): bigint {
  const b = toBig(m);
  if (from < to) return b * pow10Big(to - from);
  if (from > to) return roundedDivBig(b, pow10Big(from - to));
  return b;
}

/**
 * The same as rescaleBig for number mantissas, or undefined when the result might leave the
 * safe range (the caller then takes the bigint path).
 */
export function rescaleNumber(m: number, from: number, to: number): number | undefined {
  if (from === to) return m;
  if (from < to) {
    const d = to - from;
    if (d > 15) return m === 0 ? 0 : undefined;
    const v = m * POW10_NUMBER[d];
    return Number.isSafeInteger(v) ? v : undefined;
  }
  const d = from - to;
  if (d > 15) return undefined;
  return roundedDivNumber(m, POW10_NUMBER[d]);
}

/** Decimal digits of |m| (no sign). */
export function absDigits(m: Mantissa): string {
  if (typeof m === 'number') return String(m < 0 ? -m : m);
  return (m < 0n ? -m : m).toString();
}

export function sign(m: Mantissa): number {
  if (typeof m === 'number') return m > 0 ? 1 : m < 0 ? -1 : 0;
  return m > 0n ? 1 : m < 0n ? -1 : 0;
}
