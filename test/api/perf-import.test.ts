import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveToken } from '../../src-main/core/access/tokens.ts';
import { commitSlice } from '../../src-main/core/silo/bulk-commit.ts';
import { prepareNewEntry } from '../../src-main/core/silo/entries.ts';
import { loadEnvelope } from '../fixtures/gobl/load.ts';
import { creditNote, invoiceDoc } from './perf-helpers.ts';
import { startTestServer, type TestServer } from './harness.ts';

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

const db = () => t.service.db.sqlite!;
type Row = Record<string, unknown>;
const without = (row: Row | undefined, ...keys: string[]) => Object.fromEntries(Object.entries(row ?? {}).filter(([k]) => !keys.includes(k)));
const rowsOf = (sql: string, id: string, ...skip: string[]) => (db().prepare(sql).all(id) as Row[]).map((r) => without(r, ...skip));

/** Everything stored for an entry, less what names the entry itself or the moment it was written. */
function stored(id: string) {
  const entry = db().prepare('SELECT * FROM entries WHERE id = ?').get(id) as Row;
  return {
    entry: without(entry, 'seq', 'id', 'key', 'created_at', 'updated_at', 'data', 'request_hash'),
    mentions: rowsOf('SELECT * FROM mentions WHERE entry_id = ? ORDER BY uuid, context', id, 'entry_id', 'created_at'),
    identity: rowsOf('SELECT * FROM entry_identities WHERE entry_id = ?', id, 'entry_id'),
    refs: rowsOf('SELECT * FROM entry_refs WHERE entry_id = ? ORDER BY context, position', id, 'entry_id'),
    change: rowsOf(`SELECT * FROM sync_changes WHERE kind = 'entry' AND record_id = ?`, id, 'seq', 'record_id', 'at'),
    versions: rowsOf('SELECT * FROM entry_versions WHERE entry_id = ?', id, 'entry_id', 'key', 'at'),
    states: rowsOf('SELECT * FROM entry_states WHERE entry_id = ?', id, 'entry_id', 'seq', 'at'),
    // The search row holds no text (the index keeps none): it is found by its words. (A range, not `rowid = ?`:
    // this SQLite drops a bound rowid equality beside MATCH.)
    search: (db().prepare(`SELECT count(*) AS n FROM entries_fts WHERE rowid >= ? AND rowid <= ? AND entries_fts MATCH '"provide" "one"'`).get(entry.seq, entry.seq) as { n: number }).n,
  };
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
    const one = stored(put.body.id);
    const bulk = stored(bulkId);
    expect(one.mentions.length).toBeGreaterThan(0);
    expect(one.refs.length).toBeGreaterThan(0);
    expect(one.search).toBe(1);
    expect(bulk).toEqual(one);
    expect(db().prepare('SELECT key FROM entries WHERE id = ?').get(bulkId)).toEqual({ key: 'in-bulk' });
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
    // A write that fails inside SQLite, which no check before it could foresee.
    db().exec(`CREATE TEMP TRIGGER refuse_boom BEFORE INSERT ON main.entries WHEN NEW.key = 'boom' BEGIN SELECT RAISE(ABORT, 'boom refused'); END`);
    try {
      const items = ['ok-1', 'boom', 'ok-2'].map((key, i) => ({ id: uuidv7(), key, data: invoiceDoc(`BULK-FB-${i}`) }));
      const res = await t.call('POST', '/silo/v1/import', { entries: items });
      expect(res.body.results.map((r: any) => r.status)).toEqual(['created', 'error', 'created']);
      expect(res.body).toMatchObject({ created: 2, failed: 1 });
      for (const [i, found] of [[0, 200], [1, 404], [2, 200]] as const) {
        expect((await t.call('GET', `/silo/v1/entries/${items[i].id}`)).status).toBe(found);
      }
    } finally {
      db().exec('DROP TRIGGER temp.refuse_boom');
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
