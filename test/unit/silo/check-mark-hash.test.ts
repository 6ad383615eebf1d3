import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { checkMark, standingVerdict } from '../../../src-main/core/silo/check-mark.ts';
import { packDocument } from '../../../src-main/core/silo/packed-document.ts';
import { ENGINE_REVISION } from '../../../src-main/core/gobl/engine/revision.ts';
import { loadEnvelopes } from '../../fixtures/gobl/load.ts';

describe("an entry's check mark", () => {
  const old = (data: string, faults: string, revision: string, length = 11) =>
    createHash('sha256').update(revision).update('\u0000').update(faults).update('\u0000').update(data).digest('base64url').slice(0, length);

  it('is what it always was: SHA-256 over the revision, the faults and the text, NUL between them, now its first 11 base64url characters', () => {
    const texts = [...loadEnvelopes().map(({ envelope }) => JSON.stringify(envelope)), '', '{"doc":{"note":"Zürich – 東京 – 🧾"}}'];
    const faults = ['[]', '[{"code":"x","message":"Ünïcode ✓"}]'];
    for (const text of texts) for (const f of faults) for (const revision of ['r1', 'engine-2026.11']) expect(checkMark(text, f, revision)).toBe(old(text, f, revision));
    expect(checkMark('{}', '[]')).toMatch(/^[A-Za-z0-9_-]{11}$/);
  });

  it('takes a row marked before with 22 characters, and nothing shorter, longer or of another text', () => {
    const id = '0190c1a0-0000-7000-8000-000000000001';
    const text = JSON.stringify(loadEnvelopes()[0].envelope);
    const faults = '[{"code":"x","message":"m"}]';
    const row = (checked: string | null) => ({ id, data: packDocument('sqlite', text, id), faults, checked });
    expect(standingVerdict(row(old(text, faults, ENGINE_REVISION)))).toEqual([{ code: 'x', message: 'm', paths: [] }]);
    expect(standingVerdict(row(old(text, faults, ENGINE_REVISION, 22)))).toEqual([{ code: 'x', message: 'm', paths: [] }]);
    for (const wrong of [null, '', old(text, faults, ENGINE_REVISION, 10), old(text, faults, ENGINE_REVISION, 12), old(`${text} `, faults, ENGINE_REVISION), old(text, faults, 'another-revision', 22)]) {
      expect(standingVerdict(row(wrong))).toBeUndefined();
    }
  });
});
