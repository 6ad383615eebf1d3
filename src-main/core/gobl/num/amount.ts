// GOBL's num.Amount: an integer mantissa and a number of decimals (the exponent). The exponent
// is part of the value: "20", "20.0" and "20.000" are different amounts that print differently.
// Operations follow GOBL exactly: the left operand's exponent wins, rounding is half away from
// zero, and results are fitted into an int64 the way GOBL fits them.
import {
  absDigits, compact, fitInt64, negateMantissa, pow10Big, rescaleBig, rescaleNumber,
  roundedDivBig, roundedDivNumber, sign, toBig,
} from './mantissa.ts';
import type { Mantissa } from './mantissa.ts';
import { parseDecimal } from './parse.ts';

function fitted(v: bigint, exp: number): Amount {
  const [m, e] = fitInt64(v, exp);
  return new Amount(m, e);
}

export class Amount {
  /** The mantissa: the value times 10^exp. */
  readonly m: Mantissa;
  /** Number of decimals. */
  readonly exp: number;

  constructor(m: Mantissa, exp: number) {
    this.m = m;
    this.exp = exp;
  }

  /** An amount from a JSON string ("1800.00") or number (printed in its shortest form). Throws on anything else. */
  static parse(input: string | number): Amount {
    const [m, exp] = parseDecimal(input);
    return new Amount(m, exp);
  }

  /** Zero with `exp` decimals ("0.00" for 2). */
  static zero(exp: number): Amount {
    return new Amount(0, exp);
  }

  /** a + b at a's exponent; b is rounded to that exponent first. */
  add(b: Amount): Amount {
    if (typeof this.m === 'number' && typeof b.m === 'number') {
      const x = rescaleNumber(b.m, b.exp, this.exp);
      if (x !== undefined) {
        const s = this.m + x;
        if (Number.isSafeInteger(s)) return new Amount(s === 0 ? 0 : s, this.exp);
      }
    }
    return fitted(toBig(this.m) + rescaleBig(b.m, b.exp, this.exp), this.exp);
  }

  /** a − b at a's exponent; b is rounded to that exponent first. */
  subtract(b: Amount): Amount {
    return this.add(b.negate());
  }

  /** a × b at a's exponent (the product is rounded to it). */
  multiply(b: Amount): Amount {
    if (typeof this.m === 'number' && typeof b.m === 'number' && b.exp <= 15) {
      const p = this.m * b.m;
      if (Number.isSafeInteger(p)) return new Amount(b.exp === 0 ? p : roundedDivNumber(p, 10 ** b.exp), this.exp);
    }
    let p = toBig(this.m) * toBig(b.m);
    if (b.exp > 0) p = roundedDivBig(p, pow10Big(b.exp));
    return fitted(p, this.exp);
  }

  /** a ÷ b at a's exponent, rounded; dividing by zero gives zero. */
  divide(b: Amount): Amount {
    if (sign(b.m) === 0) return new Amount(0, this.exp);
    if (typeof this.m === 'number' && typeof b.m === 'number') {
      const n = rescaleNumber(this.m, 0, b.exp);
      if (n !== undefined) return new Amount(roundedDivNumber(n, b.m), this.exp);
    }
    return fitted(roundedDivBig(toBig(this.m) * pow10Big(b.exp), toBig(b.m)), this.exp);
  }

  /** Exactly `exp` decimals: rounded when reducing, padded when increasing. */
  rescale(exp: number): Amount {
    if (exp === this.exp) return this;
    if (typeof this.m === 'number') {
      const x = rescaleNumber(this.m, this.exp, exp);
      if (x !== undefined) return new Amount(x, exp);
    }
    if (exp < this.exp) return new Amount(compact(rescaleBig(this.m, this.exp, exp)), exp);
    return fitted(rescaleBig(this.m, this.exp, exp), exp);
  }

  /** Adds decimals up to `exp`; never removes any. */
  rescaleUp(exp: number): Amount {
    return exp > this.exp ? this.rescale(exp) : this;
  }

  /** Removes decimals down to `exp` (rounding); never adds any. */
  rescaleDown(exp: number): Amount {
    return exp < this.exp ? this.rescale(exp) : this;
  }

  /** At least as many decimals as b. */
  matchPrecision(b: Amount): Amount {
    return this.rescaleUp(b.exp);
  }

  /** Adds `n` decimals. */
  upscale(n: number): Amount {
    return this.rescale(this.exp + n);
  }

  /** −1, 0 or 1 as a is below, equal to or above b, whatever their exponents. */
  compare(b: Amount): number {
    if (typeof this.m === 'number' && typeof b.m === 'number') {
      const e = Math.max(this.exp, b.exp);
      const x = rescaleNumber(this.m, this.exp, e);
      const y = rescaleNumber(b.m, b.exp, e);
      if (x !== undefined && y !== undefined) return x < y ? -1 : x > y ? 1 : 0;
    }
    const e = Math.max(this.exp, b.exp);
    const x = rescaleBig(this.m, this.exp, e);
    const y = rescaleBig(b.m, b.exp, e);
    return x < y ? -1 : x > y ? 1 : 0;
  }

  /** Same value, whatever the exponents ("1.0" equals "1.00"). */
  equals(b: Amount): boolean {
    return this.compare(b) === 0;
  }

  isZero(): boolean {
    return sign(this.m) === 0;
  }

  isNegative(): boolean {
    return sign(this.m) < 0;
  }

  isPositive(): boolean {
    return sign(this.m) > 0;
  }

  negate(): Amount {
    return new Amount(negateMantissa(this.m), this.exp);
  }

  abs(): Amount {
    return this.isNegative() ? this.negate() : this;
  }

  /** As GOBL prints it: all `exp` decimals, a leading "-" for negatives, no exponent form. */
  toString(): string {
    const digits = absDigits(this.m);
    const minus = sign(this.m) < 0 ? '-' : '';
    const e = this.exp;
    if (e === 0) return minus + digits;
    const padded = digits.length > e ? digits : '0'.repeat(e + 1 - digits.length) + digits;
    const cut = padded.length - e;
    return `${minus}${padded.slice(0, cut)}.${padded.slice(cut)}`;
  }

  toJSON(): string {
    return this.toString();
  }
}
