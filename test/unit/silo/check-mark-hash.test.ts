import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { checkMark } from '../../../src-main/core/silo/check-mark.ts';
import { loadEnvelopes } from '../../fixtures/gobl/load.ts';

describe("an entry's check mark", () => {
  it('is what it always was: SHA-256 over the revision, the faults and the text, NUL between them, its first 22 base64url characters', () => {
    const old = (data: string, faults: string, revision: string) =>
      createHash('sha256').update(revision).update('\u0000').update(faults).update('\u0000').update(data).digest('base64url').slice(0, 22);
    const texts = [...loadEnvelopes().map(({ envelope }) => JSON.stringify(envelope)), '', '{"doc":{"note":"Zürich – 東京 – 🧾"}}'];
    const faults = ['[]', '[{"code":"x","message":"Ünïcode ✓"}]'];
    for (const text of texts) for (const f of faults) for (const revision of ['r1', 'engine-2026.11']) expect(checkMark(text, f, revision)).toBe(old(text, f, revision));
    expect(checkMark('{}', '[]')).toMatch(/^[A-Za-z0-9_-]{22}$/);
  });
});
