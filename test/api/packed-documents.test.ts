import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentText, type StoredDocument } from '../../src-main/core/silo/packed-document.ts';
import { loadEnvelope } from '../fixtures/gobl/load.ts';
import { startTestServer, type TestServer } from './harness.ts';

/**
 * SQLite stores an entry's document packed (packed-document.ts); entries stored before
 * migration 0022 keep their text. Held here: both read the same everywhere a document is
 * read (the entry, its history, a job's envelope, an export's size), a change of labels
 * writes neither form anew, and a new document is stored packed.
 */
let t: TestServer;

beforeAll(async () => {
  t = await startTestServer({ autoSync: false });
});
afterAll(() => t.close());

const rowOf = (id: string) =>
  t.service.db.sqlite!.prepare(`SELECT typeof(data) AS kind, data, version FROM entries WHERE id = ?`).get(id) as { kind: string; data: StoredDocument; version: number };

const invoice = () => {
  const envelope = loadEnvelope('es-invoice-es-es-freelance.json');
  return { ...envelope, head: { ...envelope.head, uuid: undefined } };
};

describe('documents stored packed', () => {
  it('stores a new entry packed, and answers it as the very document it was sent as', async () => {
    const created = await t.call('POST', '/silo/v1/entries', { data: invoice() });
    expect(created.status).toBe(200);
    const row = rowOf(created.body.id);
    expect(row.kind).toBe('blob');
    const text = documentText(row.data);
    expect((row.data as Uint8Array).length).toBeLessThan(Buffer.byteLength(text) / 2);
    expect((await t.call('GET', `/silo/v1/entries/${created.body.id}`)).body.data).toEqual(JSON.parse(text));
  });

  it('reads an entry stored as text before 0022 the same, keeps it text through a change of labels, packs a new document', async () => {
    const created = await t.call('POST', '/silo/v1/entries', { data: invoice() });
    const id = created.body.id as string;
    const text = documentText(rowOf(id).data);
    // As a database migrated from 0021 holds it.
    await t.service.db.tx(() => t.service.db.sqlRun('UPDATE entries SET data = ? WHERE id = ?', [text, id]), { origin: 'local' });
    const asText = rowOf(id);
    expect(asText.kind).toBe('text');
    expect((await t.call('GET', `/silo/v1/entries/${id}`)).body.data).toEqual(JSON.parse(text));

    const labelled = await t.call('PATCH', `/silo/v1/entries/${id}`, { tags: ['kept-as-text'] });
    expect(labelled.status).toBe(200);
    expect(rowOf(id)).toMatchObject({ kind: 'text', data: text, version: asText.version + 1 });

    const doc = JSON.parse(text);
    doc.doc.notes = [{ text: 'packed now' }];
    const changed = await t.call('PATCH', `/silo/v1/entries/${id}`, { data: doc });
    expect(changed.status).toBe(200);
    const after = rowOf(id);
    expect(after.kind).toBe('blob');
    expect(JSON.parse(documentText(after.data)).doc.notes).toEqual([{ text: 'packed now' }]);
    // The version it replaced is kept as it was stored, and read back as its document.
    const versions = await t.call('GET', `/silo/v1/entries/${id}/versions`);
    expect(versions.status).toBe(200);
    const first = await t.call('GET', `/silo/v1/entries/${id}/versions/${created.body.version}`);
    expect(first.body.data).toEqual(JSON.parse(text));
  });

  it('rewrites no document a change of labels leaves alone: the stored bytes stay, and no superseded copy is kept', async () => {
    const created = await t.call('POST', '/silo/v1/entries', { data: invoice() });
    const id = created.body.id as string;
    const before = rowOf(id);
    await t.call('PATCH', `/silo/v1/entries/${id}`, { state: 'processing', tags: ['x'] });
    const after = rowOf(id);
    expect(Buffer.compare(after.data as Uint8Array, before.data as Uint8Array)).toBe(0);
    const kept = t.service.db.sqlite!.prepare(`SELECT count(*) FROM entry_versions WHERE entry_id = ? AND data IS NOT NULL`).pluck().get(id);
    expect(kept).toBe(0);
  });
});
