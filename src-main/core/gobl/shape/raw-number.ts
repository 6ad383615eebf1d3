/**
 * A JSON number kept as its source text, because the text says more than a float can hold:
 * `10.50` (two decimals that GOBL keeps), `1e5` (an exponent GOBL refuses), or an integer
 * beyond 2^53. Marshalled back exactly as written.
 */
export class RawNumber {
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }
  toJSON(): number {
    return Number(this.text);
  }
  toString(): string {
    return this.text;
  }
}
