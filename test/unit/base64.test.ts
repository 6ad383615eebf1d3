import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { isBase64 } from '../../src-main/core/api/contract/common.ts';

// What a base64 field has always accepted, less the texts no decoder reads as whole bytes:
// a body of 4n+1 characters, or padding that does not complete a quartet.
const PATTERN = /^[A-Za-z0-9+/]*={0,2}$/;
function readable(text: string): boolean {
  if (!PATTERN.test(text)) return false;
  const body = text.replace(/=+$/, '');
  return body.length % 4 !== 1 && (body.length === text.length || text.length % 4 === 0);
}

describe('isBase64', () => {
  it('agrees with the base64 pattern on every readable text, over 20,000 random ones', () => {
    const alphabet = 'AZaz09+/=-_ \n\t$é.';
    const seed = randomBytes(20_000 * 12);
    for (let i = 0; i < 20_000; i++) {
      const length = seed[i * 12] % 11;
      let text = '';
      for (let k = 0; k < length; k++) text += alphabet[seed[i * 12 + 1 + k] % alphabet.length];
      expect(isBase64(text), JSON.stringify(text)).toBe(readable(text));
    }
  });

  it('accepts what Buffer writes, padded or not, and refuses spaces, line breaks and the URL-safe alphabet', () => {
    for (const size of [0, 1, 2, 3, 8192]) {
      const bytes = randomBytes(size);
      expect(isBase64(bytes.toString('base64'))).toBe(true);
      expect(isBase64(bytes.toString('base64').replace(/=+$/, ''))).toBe(true);
    }
    expect(isBase64('QUJD RA==')).toBe(false);
    expect(isBase64('QUJD\nRA==')).toBe(false);
    expect(isBase64('-_-_')).toBe(false);
    expect(isBase64('QUJDRA=')).toBe(false);
  });
});
