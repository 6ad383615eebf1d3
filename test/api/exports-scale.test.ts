import { setTimeout as nextTimers } from 'node:timers/promises';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { v7 as uuidv7 } from 'uuid';
import { loadEnvelope } from '../fixtures/gobl/load.ts';
import { startTestServer, type TestServer } from './harness.ts';
import { zipFileCount } from './exports-helpers.ts';
import { documentText, type StoredDocument } from '../../src-main/core/silo/packed-document.ts';

const COUNT = 10_000;
// Each stored document carries this much note text: 10,000 of them are ~240 MB of JSON. What the
// heap holds after a collection grows by a page of entries and the buffers in flight, never by the data.
const HEAP_BOUND = 64 * 1024 * 1024;
// How often the heap is collected and weighed while an export runs.
const SAMPLE_MS = 100;

// A full collection on demand: what the heap holds then is what the export keeps, whatever the
// collector's timing (which differs by engine, by load, and with how often the event loop is free).
setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;
const NOTE = 'x'.repeat(24_000);

let t: TestServer;

beforeAll(async () => {
  t = await startTestServer({ autoSync: false, runJobs: false });
  const envelope = loadEnvelope('es-invoice-es-es.json');
  envelope.head.uuid = uuidv7();
  envelope.doc.uuid = uuidv7();
  const first = await t.call('POST', '/silo/v1/entries', { data: envelope, folder: 'bulk' });
  expect(first.status).toBe(200);
  // Copies of the stored row straight in the database: the export is under test here, not the 10,000 builds.
  // (Written with an origin, as every write to a synced table: its triggers record the changes.)
  const { db } = t.service;
  if (db.dialect === 'sqlite') {
    const text = documentText((await db.sqlFirst<{ data: StoredDocument }>('SELECT data FROM entries WHERE id = ?', [first.body.id]))!.data, first.body.id);
    await db.tx(async () => db.sqlRun(copiesSqlite(first.body.id), [text]), { origin: 'local' });
    // That one statement held the event loop for seconds: the keep-alive timers that expired meanwhile close their idle
    // sockets now, before the first download, which would otherwise go out on a socket the server is about to close.
    await nextTimers(1);
  } else {
    // A batch per transaction: each transaction puts its changes on record (history, audit log) row by row before it commits.
    for (let from = 1; from < COUNT; from += PG_BATCH) {
      await db.tx(async () => db.sqlRun(COPIES_PG, [from, Math.min(from + PG_BATCH, COUNT) - 1, first.body.id]), { origin: 'local' });
    }
  }
}, 600_000);

afterAll(() => t.close());

const COPIED_COLUMNS = `id, company_id, key, folder, state, context, draft, invalid, signed, doc_schema, doc_uuid, env_schema,
  digest_alg, digest_val, snippet, tags, faults, data, issue_date, request_hash, version, created_at, updated_at`;

/**
 * COUNT - 1 copies of entry `id`, each with a code and the long note of its own, on SQLite…
 * The first entry's document is passed in as its text (`?`): SQL's JSON functions cannot
 * read a packed one, and the copies are stored as text, as entries stored before 0022 are.
 */
const copiesSqlite = (id: string) => `
  WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${COUNT - 1})
  INSERT INTO entries (${COPIED_COLUMNS})
  SELECT printf('00000000-0000-7000-8000-%012d', i), company_id, NULL, folder, state, context, draft, invalid, signed, doc_schema, NULL,
    env_schema, digest_alg, digest_val, snippet, tags, faults,
    json_set(?, '$.doc.code', printf('BULK-%05d', i), '$.doc.notes', json_array(json_object('text', '${NOTE}'))),
    issue_date, request_hash || i, version, created_at, updated_at
  FROM entries, n WHERE id = '${id}'`;

const PG_BATCH = 500;

/** …and their twin on PostgreSQL (the JSON text is read as jsonb): copies `?` to `?` of entry `?`. */
const COPIES_PG = `
  INSERT INTO entries (${COPIED_COLUMNS})
  SELECT '00000000-0000-7000-8000-' || lpad(i::text, 12, '0'), company_id, NULL, folder, state, context, draft, invalid, signed, doc_schema, NULL,
    env_schema, digest_alg, digest_val, snippet, tags, faults,
    jsonb_set(jsonb_set(data::jsonb, '{doc,code}', to_jsonb('BULK-' || lpad(i::text, 5, '0'))), '{doc,notes}',
      jsonb_build_array(jsonb_build_object('text', '${NOTE}')))::text,
    issue_date, request_hash || i, version, created_at, updated_at
  FROM entries, generate_series(?::int, ?::int) AS n(i) WHERE id = ?`;

/** Runs `work` while weighing what the heap holds: answers the most it grew above where it started. */
async function peakHeapGrowth<T>(work: () => Promise<T>): Promise<{ result: T; growth: number }> {
  const held = () => {
    collect();
    return process.memoryUsage().heapUsed;
  };
  const start = held();
  let peak = start;
  const timer = setInterval(() => (peak = Math.max(peak, held())), SAMPLE_MS);
  try {
    const result = await work();
    peak = Math.max(peak, held());
    return { result, growth: peak - start };
  } finally {
    clearInterval(timer);
  }
}

/** Reads a download as a stream, keeping only its size and its last 64 KiB (where a ZIP's directory is). */
async function streamed(path: string, body: unknown): Promise<{ status: number; size: number; lines: number; tail: Uint8Array }> {
  const res = await fetch(t.url + path, { method: 'POST', headers: { authorization: `Bearer ${t.token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  let size = 0;
  let lines = 0;
  let tail = new Uint8Array(0);
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    for (const byte of chunk) if (byte === 0x0a) lines += 1;
    const joined = new Uint8Array(tail.byteLength + chunk.byteLength);
    joined.set(tail);
    joined.set(chunk, tail.byteLength);
    tail = joined.subarray(Math.max(0, joined.byteLength - 65_536));
  }
  return { status: res.status, size, lines, tail };
}

/** The document codes of a CSV export, in its order. */
async function csvCodes(body: unknown): Promise<string[]> {
  const res = await fetch(`${t.url}/silo/v1/exports/csv`, { method: 'POST', headers: { authorization: `Bearer ${t.token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  expect(res.status).toBe(200);
  // A row names its code more than once (number, description): one per row.
  return [...(await res.text()).matchAll(/BULK-\d{5}/g)].map((m) => m[0]).filter((code, i, all) => code !== all[i - 1]);
}

describe('an export of 10,000 entries', () => {
  it('holds each entry once, in the same order, whether read along the index a window at a time or from a folder’s own rows', async () => {
    // No filter: the issue-date index in windows of 4,000 (all share one date: the windows cut within it).
    const whole = await csvCodes({});
    expect(whole).toHaveLength(COUNT - 1);
    expect(new Set(whole).size).toBe(COUNT - 1);
    // A folder (on SQLite read from its rows, sorted here) and a state (likewise): the same entries in the same order.
    expect(await csvCodes({ folder: 'bulk' })).toEqual(whole);
    expect(await csvCodes({ state: 'draft', date_from: '2000-01-01' })).toEqual(whole);
  }, 120_000);

  it('streams the CSV: every document a row, memory flat', async () => {
    const { result, growth } = await peakHeapGrowth(() => streamed('/silo/v1/exports/csv', { folder: 'bulk' }));
    expect(result.status).toBe(200);
    expect(result.lines).toBe(COUNT + 1);
    expect(growth).toBeLessThan(HEAP_BOUND);
  }, 120_000);

  it('streams the ZIP: every envelope a file, memory flat though the envelopes weigh 240 MB', async () => {
    const { result, growth } = await peakHeapGrowth(() => streamed('/silo/v1/exports/zip', { folder: 'bulk' }));
    expect(result.status).toBe(200);
    expect(zipFileCount(result.tail)).toBe(COUNT + 1);
    expect(growth).toBeLessThan(HEAP_BOUND);
  }, 180_000);
});
