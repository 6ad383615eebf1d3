import { createHash } from 'node:crypto';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadEnvelope } from '../fixtures/gobl/load.ts';
import { startTestServer, type TestServer } from './harness.ts';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

const SCAN = 'https://silodesk.app/draft-0/scan';
const pdfBytes = Buffer.from('%PDF-1.4 the same scan, byte for byte');
const sha = createHash('sha256').update(pdfBytes).digest('hex');
const scanOf = (name: string) => ({ $schema: SCAN, name, mime: 'application/pdf', size: pdfBytes.length, sha256: sha });

async function importItems(entries: unknown[], onDuplicate?: 'store' | 'skip') {
  const res = await t.call('POST', '/silo/v1/import', { entries, ...(onDuplicate ? { on_duplicate: onDuplicate } : {}) });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

describe('duplicates by document digest', () => {
  it('leaves out a document the company holds under another id with `skip`, and stores copies when asked', async () => {
    const envelope = loadEnvelope('es-invoice-es-es.json');
    envelope.head.uuid = uuidv7();
    const first = await importItems([{ data: envelope }]);
    expect(first.results[0].status).toBe('created');

    // The same document under other envelope ids (a re-export, a copy from a colleague), twice.
    const copies = [uuidv7(), uuidv7()].map((id) => ({ data: { ...envelope, head: { ...envelope.head, uuid: id } } }));
    const skipped = await importItems(copies, 'skip');
    expect(skipped).toMatchObject({ created: 0, duplicates: 2, failed: 0 });
    expect(skipped.results).toEqual([
      { index: 0, status: 'duplicate', duplicate_of: envelope.head.uuid, duplicate_by: 'digest' },
      { index: 1, status: 'duplicate', duplicate_of: envelope.head.uuid, duplicate_by: 'digest' },
    ]);
    for (const c of copies) expect((await t.call('GET', `/silo/v1/entries/${c.data.head.uuid}`)).status).toBe(404);

    // One decision for all: import them as copies.
    const kept = await importItems(copies, 'store');
    expect(kept).toMatchObject({ created: 2, duplicates: 0 });
    expect(kept.results.map((r: any) => [r.status, r.duplicate_of, r.duplicate_by])).toEqual([
      ['created', envelope.head.uuid, 'digest'],
      ['created', envelope.head.uuid, 'digest'],
    ]);
    // A replay of the same id is `exists`, never a duplicate, whatever the choice.
    const replay = await importItems([{ data: envelope }], 'skip');
    expect(replay.results[0]).toEqual({ index: 0, status: 'exists', id: envelope.head.uuid });
  });

  it('treats two copies in one call as duplicates of each other', async () => {
    const doc = { ...loadEnvelope('us-invoice-us-us.json').doc, uuid: uuidv7(), code: 'TWICE-1' };
    const res = await importItems([{ data: doc }, { data: doc }], 'skip');
    expect(res.results[0].status).toBe('created');
    expect(res.results[1]).toMatchObject({ status: 'duplicate', duplicate_of: res.results[0].id, duplicate_by: 'digest' });
  });
});

describe('duplicates by file bytes', () => {
  it('warns about the same PDF bytes under another name, once attached or earlier in the same call', async () => {
    const first = await importItems([{ data: scanOf('Scan 2025-03-14 10:30.pdf'), state: 'draft' }]);
    const draft = first.results[0].id;
    const put = await t.call('PUT', `/silo/v1/entries/${draft}/files/scan.pdf`, { name: 'Scan 2025-03-14 10:30.pdf', data: pdfBytes.toString('base64') });
    expect(put.status).toBe(200);

    // Same bytes, another name: another digest, the same file.
    const renamed = await importItems([{ data: scanOf('invoice from ACME.pdf'), state: 'draft' }], 'skip');
    expect(renamed.results[0]).toEqual({ index: 0, status: 'duplicate', duplicate_of: draft, duplicate_by: 'file' });
    const stored = await importItems([{ data: scanOf('invoice from ACME.pdf'), state: 'draft' }]);
    expect(stored.results[0]).toMatchObject({ status: 'created', duplicate_of: draft, duplicate_by: 'file' });

    // Two names for one new file in one call: the second is the first's duplicate.
    const other = Buffer.from('%PDF-1.4 another scan');
    const otherSha = createHash('sha256').update(other).digest('hex');
    const pair = await importItems(
      ['a.pdf', 'b.pdf'].map((name) => ({ data: { ...scanOf(name), size: other.length, sha256: otherSha }, state: 'draft' })),
      'skip',
    );
    expect(pair.results[1]).toMatchObject({ status: 'duplicate', duplicate_of: pair.results[0].id, duplicate_by: 'file' });
  });

  it('never names an entry of another company', async () => {
    const company = await t.call('POST', '/access/v1/companies', { name: 'Other books' });
    const res = await t.call('POST', '/silo/v1/import', { entries: [{ data: scanOf('same bytes elsewhere.pdf') }], on_duplicate: 'skip' }, { authorization: `Bearer ${company.body.owner_token}` });
    expect(res.body.results[0]).toMatchObject({ status: 'created' });
    expect(res.body.results[0].duplicate_of).toBeUndefined();
  });

  it('refuses an unknown choice', async () => {
    const res = await t.call('POST', '/silo/v1/import', { entries: [{ data: scanOf('x.pdf') }], on_duplicate: 'merge' });
    expect(res.status).toBe(422);
    expect(res.body.fields).toHaveProperty(['$.on_duplicate']);
  });
});
