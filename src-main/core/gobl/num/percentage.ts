// GOBL's num.Percentage: held as a ratio amount with two more decimals than its percent form
// ("21.0%" is 0.210, "5.2%" is 0.052). Text without "%" is the ratio itself ("0.21" is 21%).
// It prints as ratio × 100 with two fewer decimals (never fewer than none) and a "%".
import { Amount } from './amount.ts';

const ONE = new Amount(1, 0);
const HUNDRED = new Amount(100, 0);

export class Percentage {
  /** The ratio: 0.210 for 21.0%. */
  readonly ratio: Amount;

  constructor(ratio: Amount) {
    this.ratio = ratio;
  }

  /** "21.0%" → 0.210, "0.21" → 0.21, "" → 0; a JSON number is read as the ratio. Throws on anything else. */
  static parse(input: string | number): Percentage {
    if (typeof input === 'string') {
      if (input.length === 0) return new Percentage(new Amount(0, 0));
      if (input.charCodeAt(input.length - 1) === 37) { // '%'
        const a = Amount.parse(input.slice(0, -1));
        return new Percentage(a.rescale(a.exp + 2).divide(HUNDRED));
      }
    }
    return new Percentage(Amount.parse(input));
  }

  /** amount × ratio, at the amount's exponent. */
  of(amount: Amount): Amount {
    return amount.multiply(this.ratio);
  }

  /** 1 + ratio. */
  factor(): Amount {
    return this.ratio.add(ONE);
  }

  /** Takes this percentage back out of an amount that includes it: amount ÷ (1 + ratio). */
  remove(amount: Amount): Amount {
    return amount.divide(this.factor());
  }

  /** The percent figure without the symbol: 21.0 for a ratio of 0.210. */
  percentAmount(): Amount {
    return this.ratio.multiply(HUNDRED).rescale(Math.max(this.ratio.exp - 2, 0));
  }

  isZero(): boolean {
    return this.ratio.isZero();
  }

  equals(p: Percentage): boolean {
    return this.ratio.equals(p.ratio);
  }

  compare(p: Percentage): number {
    return this.ratio.compare(p.ratio);
  }

  negate(): Percentage {
    return new Percentage(this.ratio.negate());
  }

  /** As GOBL prints it: "21.0%". */
  toString(): string {
    return `${this.percentAmount().toString()}%`;
  }

  toJSON(): string {
    return this.toString();
  }
}
