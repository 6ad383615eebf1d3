// What a pass over JSON text needs to know of its tokens without parsing it: where a string
// ends, which characters a number is written with, and whether a float keeps a number's text.
export const QUOTE = 0x22;
export const BACKSLASH = 0x5c;
export const OPEN_BRACE = 0x7b;
export const CLOSE_BRACE = 0x7d;
export const OPEN_BRACKET = 0x5b;
export const CLOSE_BRACKET = 0x5d;
export const COMMA = 0x2c;
export const COLON = 0x3a;
const MINUS = 0x2d;
const ZERO = 0x30;
const NINE = 0x39;

/** The end of the string whose opening quote is at `at` (the position after its closing quote), or -1. */
export function stringEnd(text: string, at: number): number {
  let quote = text.indexOf('"', at + 1);
  while (quote !== -1) {
    // A quote preceded by an odd run of backslashes is escaped.
    let slashes = 0;
    for (let k = quote - 1; text.charCodeAt(k) === BACKSLASH; k--) slashes++;
    if (slashes % 2 === 0) return quote + 1;
    quote = text.indexOf('"', quote + 1);
  }
  return -1;
}

function isNumberChar(c: number): boolean {
  // digits, `-`, `+`, `.`, `e`, `E`
  return (c >= ZERO && c <= NINE) || c === MINUS || c === 0x2b || c === 0x2e || c === 0x65 || c === 0x45;
}

/** Whether a number token starts with this character (outside strings). */
export const startsNumber = (c: number): boolean => (c >= ZERO && c <= NINE) || c === MINUS;

/** The end of the number token that starts at `at`, looking no further than `limit`. */
export function numberEnd(text: string, at: number, limit: number): number {
  let end = at + 1;
  while (end < limit && isNumberChar(text.charCodeAt(end))) end++;
  return end;
}

/** Whether the float of a JSON number token prints back as the token (what the reviver keeps as it is). */
export function floatKeepsText(token: string): boolean {
  // Plain integers of up to 15 digits are exact; only `-0` prints otherwise.
  if (token.length <= 15) {
    let plain = true;
    for (let k = token.charCodeAt(0) === MINUS ? 1 : 0; k < token.length; k++) {
      const c = token.charCodeAt(k);
      if (c < ZERO || c > NINE) {
        plain = false;
        break;
      }
    }
    if (plain) return token !== '-0';
  }
  return String(Number(token)) === token;
}
