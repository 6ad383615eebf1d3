import { deflateRawSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { v7 as uuidv7 } from 'uuid';
import { DOCUMENT_DICTIONARY_1 } from '../../src-main/core/silo/document-dictionary.ts';
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
    const text = documentText(row.data, created.body.id);
    expect((row.data as Uint8Array).length).toBeLessThan(Buffer.byteLength(text) / 2);
    expect((await t.call('GET', `/silo/v1/entries/${created.body.id}`)).body.data).toEqual(JSON.parse(text));
  });

  it('reads an entry stored as text before 0022 the same, keeps it text through a change of labels, packs a new document', async () => {
    const created = await t.call('POST', '/silo/v1/entries', { data: invoice() });
    const id = created.body.id as string;
    const text = documentText(rowOf(id).data, id);
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
    expect(JSON.parse(documentText(after.data, id)).doc.notes).toEqual([{ text: 'packed now' }]);
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

  it("packs a document against its entry's id (format 2), and reads it wherever it is kept: the entry, a job's envelope, a superseded version", async () => {
    const created = await t.call('POST', '/silo/v1/entries', { data: invoice() });
    const id = created.body.id as string;
    const row = rowOf(id);
    expect((row.data as Uint8Array)[0]).toBe(2);
    const text = documentText(row.data, id);
    expect(() => documentText(row.data, uuidv7())).toThrow(/another entry/);

    const wf = await t.call('PUT', `/transform/v1/workflows/${uuidv7()}`, { name: 'state', steps: [{ provider: 'silo.state', config: { state: 'processing' } }] });
    const job = await t.call('POST', '/transform/v1/jobs?wait=30', { workflow_id: wf.body.id, silo_entry_id: id });
    expect(job.status, JSON.stringify(job.body)).toBe(200);
    expect(job.body.envelope).toEqual(JSON.parse(text));
    expect((await t.call('GET', `/transform/v1/jobs/${job.body.id}`)).body.envelope).toEqual(JSON.parse(text));

    const doc = JSON.parse(text);
    doc.doc.notes = [{ text: 'superseded' }];
    expect((await t.call('PATCH', `/silo/v1/entries/${id}`, { data: doc })).status).toBe(200);
    const kept = t.service.db.sqlite!.prepare('SELECT data FROM entry_versions WHERE entry_id = ? AND data IS NOT NULL').pluck().get(id) as Uint8Array;
    expect(kept[0]).toBe(2);
    expect((await t.call('GET', `/silo/v1/entries/${id}/versions/${created.body.version}`)).body.data).toEqual(JSON.parse(text));
  });

  it('reads an entry packed as format 1 (before format 2) the same, and keeps its bytes through a change of labels', async () => {
    const created = await t.call('POST', '/silo/v1/entries', { data: invoice() });
    const id = created.body.id as string;
    const text = documentText(rowOf(id).data, id);
    const bytes = Buffer.from(text, 'utf8');
    const header = Buffer.from([1, 0, 0, 0, 0]);
    header.writeUInt32BE(bytes.length, 1);
    const format1 = Buffer.concat([header, deflateRawSync(bytes, { dictionary: Buffer.from(DOCUMENT_DICTIONARY_1), windowBits: 13, memLevel: 5 })]);
    await t.service.db.tx(() => t.service.db.sqlRun('UPDATE entries SET data = ? WHERE id = ?', [format1, id]), { origin: 'local' });
    expect((await t.call('GET', `/silo/v1/entries/${id}`)).body.data).toEqual(JSON.parse(text));
    expect((await t.call('PATCH', `/silo/v1/entries/${id}`, { tags: ['old-format'] })).status).toBe(200);
    expect(Buffer.compare(rowOf(id).data as Uint8Array, format1)).toBe(0);
  });
});
