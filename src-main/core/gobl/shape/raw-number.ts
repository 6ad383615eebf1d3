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
  /** JSON.stringify writes the number exactly as it came (JSON.rawJSON), so storing loses nothing. */
  toJSON(): unknown {
    return (JSON as unknown as { rawJSON(text: string): unknown }).rawJSON(this.text);
  }
  toString(): string {
    return this.text;
  }
}
