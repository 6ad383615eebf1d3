import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { schemaFromStored, storedSchema } from '../../../src-main/core/silo/stored-schema.ts';

describe('a stored schema', () => {
  it('keeps GOBL’s schemas short and reads them back whole', () => {
    expect(storedSchema('https://gobl.org/draft-0/bill/invoice')).toBe('~bill/invoice');
    expect(storedSchema('https://gobl.org/draft-0/envelope')).toBe('~envelope');
    expect(schemaFromStored('~bill/invoice')).toBe('https://gobl.org/draft-0/bill/invoice');
    // As rows stored before have it.
    expect(schemaFromStored('https://gobl.org/draft-0/envelope')).toBe('https://gobl.org/draft-0/envelope');
  });

  it('reads back any text as exactly what was stored, a ~ of its own included', () => {
    for (const odd of ['', '~', '~x', '~~x', 'https://gobl.org/draft-0/~x', 'https://gobl.org/draft-0/', 'https://example.com/s', 'x']) {
      expect(schemaFromStored(storedSchema(odd)), odd).toBe(odd);
    }
    fc.assert(fc.property(fc.oneof(fc.string(), fc.string().map((s) => `https://gobl.org/draft-0/${s}`), fc.string().map((s) => `~${s}`)), (s) => schemaFromStored(storedSchema(s)) === s));
  });
});
