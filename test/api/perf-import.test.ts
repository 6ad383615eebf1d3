import { createHash } from 'node:crypto';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveToken } from '../../src-main/core/access/tokens.ts';
import { commitSlice, type PreparedItem } from '../../src-main/core/silo/bulk-commit.ts';
import { checkMark } from '../../src-main/core/silo/check-mark.ts';
import { prepareNewEntry } from '../../src-main/core/silo/entries.ts';
import { loadEnvelope } from '../fixtures/gobl/load.ts';
import { creditNote, invoiceDoc } from './perf-helpers.ts';
import { startTestServer, type TestServer } from './harness.ts';
import { documentText, type StoredDocument } from '../../src-main/core/silo/packed-document.ts';

/**
 * Bulk import writes each entry once, with the slice's look-ups done together and no
 * savepoint per item (bulk-commit.ts), in slices that yield between them (import.ts).
 * What it writes must be what one PUT writes; what it answers must not change.
 */
let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

// Read through the engine-neutral Db: the same rows compared the same way on SQLite and PostgreSQL.
const db = () => t.service.db;
type Row = Record<string, unknown>;
const without = (row: Row | undefined, ...keys: string[]) => Object.fromEntries(Object.entries(row ?? {}).filter(([k]) => !keys.includes(k)));
const rowsOf = async (sql: string, id: string | number, ...skip: string[]) => (await db().sql(sql, [id])).map((r) => without(r, ...skip));

/**
 * How many search rows of the entry at `seq` hold the words `provide` and `one`. The
 * row holds no text (neither index keeps any): it is found by its words, in each
 * engine's own index (SQLite's FTS5 table, PostgreSQL's tsvectors, db/pg/search.ts).
 */
async function searchRows(seq: unknown): Promise<number> {
  const found =
    db().dialect === 'postgres'
      ? await db().sqlFirst<{ n: number }>(`SELECT count(*) AS n FROM entries_search WHERE seq = ? AND words @@ ?::tsquery`, [seq, `'provide' & 'one'`])
      : // A range, not `rowid = ?`: this SQLite drops a bound rowid equality beside MATCH.
        await db().sqlFirst<{ n: number }>(`SELECT count(*) AS n FROM entries_fts WHERE rowid >= ? AND rowid <= ? AND entries_fts MATCH '"provide" "one"'`, [seq, seq]);
  return Number(found!.n);
}

/** Everything stored for an entry, less what names the entry itself or the moment it was written. */
async function stored(id: string) {
  const entry = (await db().sqlFirst('SELECT * FROM entries WHERE id = ?', [id]))!;
  return {
    entry: without(entry, 'seq', 'id', 'key', 'created_at', 'updated_at', 'data', 'request_hash', 'checked'),
    // GOBL's verdict kept, and for this very document (the data holds the entry's own id, so the marks differ).
    marked: entry.checked === checkMark(documentText(entry.data as StoredDocument, id), String(entry.faults)),
    mentions: await rowsOf('SELECT * FROM mentions WHERE entry_id = ? ORDER BY uuid, context', id, 'entry_id', 'created_at'),
    identity: await rowsOf('SELECT * FROM entry_identities WHERE seq = ?', entry.seq as number, 'seq'),
    refs: await rowsOf('SELECT * FROM entry_refs WHERE entry_id = ? ORDER BY context, position', id, 'entry_id'),
    // (`written_in`, PostgreSQL's only: the write scope that made the change, a new one per transaction; db/pg/change-triggers.ts.)
    change: await rowsOf(`SELECT * FROM sync_changes WHERE kind = 'entry' AND record_id = ?`, id, 'seq', 'record_id', 'written_in'),
    versions: await rowsOf('SELECT * FROM entry_versions WHERE entry_id = ? ORDER BY version', id, 'entry_id', 'key', 'at'),
    states: await rowsOf('SELECT * FROM entry_states WHERE entry_id = ? ORDER BY seq', id, 'entry_id', 'seq', 'at'),
    search: await searchRows(entry.seq),
  };
}

/**
 * Makes every write of an entry under `key` fail inside the database, as no check before
 * it could foresee; answers how to undo it. SQLite: a TEMP trigger of this connection;
 * PostgreSQL: a trigger on the suite's own database (every pooled connection sees it).
 */
async function refuseKey(key: string): Promise<() => Promise<void>> {
  if (db().dialect === 'postgres') {
    await db().sqlRun(`CREATE FUNCTION refuse_boom() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.key = '${key}' THEN RAISE EXCEPTION 'boom refused'; END IF; RETURN NEW; END $$`);
    await db().sqlRun('CREATE TRIGGER refuse_boom BEFORE INSERT ON entries FOR EACH ROW EXECUTE FUNCTION refuse_boom()');
    return async () => {
      await db().sqlRun('DROP TRIGGER refuse_boom ON entries');
      await db().sqlRun('DROP FUNCTION refuse_boom()');
    };
  }
  const sqlite = db().sqlite!;
  sqlite.exec(`CREATE TEMP TRIGGER refuse_boom BEFORE INSERT ON main.entries WHEN NEW.key = '${key}' BEGIN SELECT RAISE(ABORT, 'boom refused'); END`);
  return async () => void sqlite.exec('DROP TRIGGER temp.refuse_boom');
}

describe('bulk import', () => {
  it('stores an entry as one PUT stores it: the row, its derived rows, its change and its history', async () => {
    const invoice = await t.call('POST', '/silo/v1/entries', { data: invoiceDoc('BULK-1') });
    const note = creditNote(invoice.body.data.doc, 'BULK-CN-1');
    const labels = { folder: 'inbox', state: 'received', tags: ['bulk', 'bulk', 'check'] };
    const put = await t.call('PUT', `/silo/v1/entries/${uuidv7()}`, { data: note, key: 'one-by-one', ...labels });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    // The same document under another id (built the same, so the same digest: a duplicate, stored), written
    // by the bulk path itself: commitSlice throws rather than fall back, so these rows are its own.
    const ctx = { service: t.service, caller: (await resolveToken(t.service.db, t.token))! };
    const input = { data: { ...put.body.data, head: { ...put.body.data.head, uuid: undefined } }, key: 'in-bulk', ...labels };
    const bulkId = uuidv7();
    const p = await prepareNewEntry(ctx, bulkId, input);
    const [result] = await t.service.db.tx(() => commitSlice(ctx, [{ index: 0, p }], 'store', new Map()), { origin: 'local' });
    expect(result).toMatchObject({ status: 'created', id: bulkId, duplicate_of: put.body.id, duplicate_by: 'digest' });
    const one = await stored(put.body.id);
    const bulk = await stored(bulkId);
    expect(one.mentions.length).toBeGreaterThan(0);
    expect(one.refs.length).toBeGreaterThan(0);
    expect(one.search).toBe(1);
    expect(one.marked).toBe(true);
    expect(bulk).toEqual(one);
    expect(await db().sqlFirst('SELECT key FROM entries WHERE id = ?', [bulkId])).toEqual({ key: 'in-bulk' });
  });

  it('stores every entry of a slice of many as one PUT stores it, search rows included, and the audit log still verifies', async () => {
    const ctx = { service: t.service, caller: (await resolveToken(t.service.db, t.token))! };
    const invoice = await t.call('POST', '/silo/v1/entries', { data: invoiceDoc('SLICE-0') });
    const docs = [invoiceDoc('SLICE-1'), creditNote(invoice.body.data.doc, 'SLICE-CN-1'), invoiceDoc('SLICE-2'), creditNote(invoice.body.data.doc, 'SLICE-CN-2')];
    const labels = (i: number) => ({ folder: i % 2 ? 'inbox' : 'sales', tags: ['slice', `only${'abcd'[i]}`] });
    const puts = [];
    for (const [i, data] of docs.entries()) {
      const put = await t.call('PUT', `/silo/v1/entries/${uuidv7()}`, { data, ...labels(i) });
      expect(put.status, JSON.stringify(put.body)).toBe(200);
      puts.push(put.body);
    }
    // The same documents again, in one slice written by the bulk path itself (it throws rather than fall back).
    const prepared: PreparedItem[] = [];
    for (const [index, put] of puts.entries()) {
      const input = { data: { ...put.data, head: { ...put.data.head, uuid: undefined } }, ...labels(index) };
      prepared.push({ index, p: await prepareNewEntry(ctx, uuidv7(), input) });
    }
    const results = await t.service.db.tx(() => commitSlice(ctx, prepared, 'store', new Map()), { origin: 'local' });
    expect(results.map((r) => [r.index, r.status, r.duplicate_of])).toEqual(puts.map((put, i) => [i, 'created', put.id]));
    for (const [i, put] of puts.entries()) {
      const one = await stored(put.id);
      expect(one.search).toBe(1);
      expect(await stored(results[i].id!)).toEqual(one);
      // Found by the word its tag alone holds, as the one PUT wrote: both.
      const found = (await t.call('GET', `/silo/v1/search?q=only${'abcd'[i]}&limit=10`)).body.list.map((e: any) => e.id);
      expect(found.sort()).toEqual([put.id, results[i].id].sort());
    }
    expect((await t.call('GET', '/silo/v1/audit/verify')).body).toMatchObject({ ok: true });
  });

  it('decides each item of a slice with scanned files among its documents as one at a time would, the rows before a scan written first', async () => {
    const bytes = Buffer.from(`%PDF-1.4 a scan of its own ${uuidv7()}`);
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    const scan = (name: string) => ({ $schema: 'https://silodesk.app/draft-0/scan', name, mime: 'application/pdf', size: bytes.length, sha256 });
    const doc = { ...loadEnvelope('us-invoice-us-us.json').doc, uuid: uuidv7(), code: 'SLICE-SCAN-1' };
    const entries = [{ data: doc }, { data: scan('a.pdf'), state: 'draft' }, { data: doc }, { data: scan('a.pdf'), state: 'draft' }, { data: scan('b.pdf'), state: 'draft' }];
    const res = await t.call('POST', '/silo/v1/import', { entries: entries.map((e) => ({ ...e, id: uuidv7() })), on_duplicate: 'skip' });
    const results = res.body.results;
    expect(results.map((r: any) => [r.status, r.duplicate_by])).toEqual([
      ['created', undefined],
      ['created', undefined],
      ['duplicate', 'digest'],
      ['duplicate', 'file'],
      ['duplicate', 'file'],
    ]);
    expect(results.slice(2).map((r: any) => r.duplicate_of)).toEqual([results[0].id, results[1].id, results[1].id]);
    for (const r of results.slice(0, 2)) expect((await t.call('GET', `/silo/v1/entries/${r.id}`)).status).toBe(200);
  });

  it('writes a slice of any length in its items\' order: their seqs, their changes and their log rows follow it', async () => {
    const ctx = { service: t.service, caller: (await resolveToken(t.service.db, t.token))! };
    // 43 entries (32 + 8 + 2 + 1 a statement), one a replay of an earlier one in between.
    const prepared: PreparedItem[] = [];
    for (let index = 0; index < 43; index++) prepared.push({ index, p: await prepareNewEntry(ctx, uuidv7(), { data: invoiceDoc(`SLICE-ORDER-${index}`) }) });
    prepared.splice(20, 0, { index: 43, p: prepared[5].p });
    const results = await t.service.db.tx(() => commitSlice(ctx, prepared, 'store', new Map()), { origin: 'local' });
    expect(results.map((r) => r.status)).toEqual([...Array(20).fill('created'), 'exists', ...Array(23).fill('created')]);
    const ids = prepared.filter((_, i) => i !== 20).map((i) => i.p!.id);
    const inOrder = async (sql: string) => (await db().sql<{ id: string }>(sql, [JSON.stringify(ids)])).map((r) => r.id);
    const list = db().dialect === 'postgres' ? '(SELECT jsonb_array_elements_text(?::jsonb))' : '(SELECT value FROM json_each(?))';
    expect(await inOrder(`SELECT id FROM entries WHERE id IN ${list} ORDER BY seq`)).toEqual(ids);
    expect(await inOrder(`SELECT record_id AS id FROM sync_changes WHERE kind = 'entry' AND record_id IN ${list} ORDER BY seq`)).toEqual(ids);
    expect(await inOrder(`SELECT target_id AS id FROM audit_log WHERE action = 'entry.created' AND target_id IN ${list} ORDER BY seq`)).toEqual(ids);
    for (const id of ids) expect((await stored(id)).search).toBe(1);
  });

  it('answers each item as before: created, exists on a replay, a conflict for a body changed under its id, a used key', async () => {
    const a = { id: uuidv7(), data: invoiceDoc('BULK-2') };
    const b = { id: uuidv7(), data: invoiceDoc('BULK-3'), key: 'bulk-key' };
    const first = await t.call('POST', '/silo/v1/import', { entries: [a, b] });
    expect(first.body).toMatchObject({ created: 2, existing: 0, failed: 0 });
    const again = await t.call('POST', '/silo/v1/import', {
      entries: [a, { ...a, data: invoiceDoc('BULK-2-changed') }, { id: uuidv7(), data: invoiceDoc('BULK-4'), key: 'bulk-key' }, b],
    });
    expect(again.body.results.map((r: any) => [r.index, r.status, r.error?.key])).toEqual([
      [0, 'exists', undefined],
      [1, 'error', 'conflict'],
      [2, 'error', 'conflict'],
      [3, 'exists', undefined],
    ]);
    expect(again.body).toMatchObject({ created: 0, existing: 2, failed: 2 });
  });

  it('falls back to one item at a time when a bulk write fails, so only the failing item is lost', async () => {
    // A write that fails inside the database, which no check before it could foresee.
    const undo = await refuseKey('boom');
    try {
      const items = ['ok-1', 'boom', 'ok-2'].map((key, i) => ({ id: uuidv7(), key, data: invoiceDoc(`BULK-FB-${i}`) }));
      const res = await t.call('POST', '/silo/v1/import', { entries: items });
      expect(res.body.results.map((r: any) => r.status)).toEqual(['created', 'error', 'created']);
      expect(res.body).toMatchObject({ created: 2, failed: 1 });
      for (const [i, found] of [[0, 200], [1, 404], [2, 200]] as const) {
        expect((await t.call('GET', `/silo/v1/entries/${items[i].id}`)).status).toBe(found);
      }
    } finally {
      await undo();
    }
  });

  it('works in slices that yield: other requests are answered, and see slices land, before the import ends', async () => {
    const fixtures = ['es-invoice-es-es.json', 'fr-invoice-fr-fr.json', 'de-invoice-de-de-stnr.json', 'it-flat-rate.json'].map(loadEnvelope);
    const count = 240;
    const entries = Array.from({ length: count }, (_, i) => {
      const envelope = structuredClone(fixtures[i % fixtures.length]);
      envelope.head = { uuid: uuidv7() };
      envelope.doc = { ...envelope.doc, uuid: uuidv7(), code: `Y-${i}` };
      return { data: envelope };
    });
    const total = async () => ((await t.call('GET', '/silo/v1/folders')).body.list as Array<{ count: number }>).reduce((n, f) => n + f.count, 0);
    const before = await total();
    let done = false;
    const importing = t.call('POST', '/silo/v1/import', { entries }).finally(() => (done = true));
    const seen: number[] = [];
    while (!done) seen.push(await total());
    const result = await importing;
    expect(result.body).toMatchObject({ created: count, failed: 0 });
    expect(result.body.results.map((r: any) => r.index)).toEqual([...Array(count).keys()]);
    // Reads were answered while the import ran, and some saw it part done.
    expect(seen.length).toBeGreaterThan(1);
    expect(seen.some((n) => n > before && n < before + count), `totals seen: ${seen.join(', ')}`).toBe(true);
    expect(await total()).toBe(before + count);
  });

  it('lists (page, related, search) show each entry as the entry itself does, less its document, though they read less of its row', async () => {
    const invoice = await t.call('POST', '/silo/v1/entries', { data: invoiceDoc('VIEW-1'), tags: ['view'] });
    const note = await t.call('POST', '/silo/v1/entries', { data: creditNote(invoice.body.data.doc, 'VIEW-CN-1') });
    const { data: _data, ...entry } = (await t.call('GET', `/silo/v1/entries/${invoice.body.id}`)).body;
    const page = (await t.call('GET', '/silo/v1/entries?limit=100')).body.list.find((e: any) => e.id === invoice.body.id);
    const related = (await t.call('GET', `/silo/v1/entries/${note.body.id}/related`)).body.list[0];
    const found = (await t.call('GET', '/silo/v1/search?q=VIEW-1')).body.list[0];
    expect(page).toEqual(entry);
    expect(found).toEqual(entry);
    expect(related).toEqual({ ...entry, context: 'preceding' });
  });
});
