import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { entryCode } from '../../../src-main/core/sequence/code.ts';

describe('entry codes', () => {
  it('pads the index to at least `padding` digits between prefix and suffix', () => {
    expect(entryCode({ prefix: 'F-', padding: 5, suffix: '/26' }, 42)).toBe('F-00042/26');
    expect(entryCode({ prefix: '', padding: 0, suffix: '' }, 0)).toBe('0');
    expect(entryCode({ prefix: 'A', padding: 2, suffix: '' }, 12345)).toBe('A12345');
  });

  it('always reads back as prefix, the index, suffix', () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 20 }),
        fc.integer({ min: 0, max: 20 }),
        fc.string({ maxLength: 20 }),
        fc.maxSafeNat(),
        (prefix, padding, suffix, index) => {
          const code = entryCode({ prefix, padding, suffix }, index);
          expect(code.startsWith(prefix)).toBe(true);
          expect(code.endsWith(suffix)).toBe(true);
          const digits = code.slice(prefix.length, code.length - suffix.length);
          expect(digits).toMatch(/^\d+$/);
          expect(Number(digits)).toBe(index);
          expect(digits.length).toBe(Math.max(padding, String(index).length));
        },
      ),
    );
  });
});
