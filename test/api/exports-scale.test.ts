import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { v7 as uuidv7 } from 'uuid';
import { loadEnvelope } from '../fixtures/gobl/load.ts';
import { startTestServer, type TestServer } from './harness.ts';
import { zipFileCount } from './exports-helpers.ts';

const COUNT = 10_000;
// Each stored document carries this much note text: 10,000 of them are ~240 MB of JSON. The heap
// grows by garbage between collections (about 70 MB whatever the data's size), never by the data.
const HEAP_BOUND = 110 * 1024 * 1024;
const NOTE = 'x'.repeat(24_000);

let t: TestServer;

beforeAll(async () => {
  t = await startTestServer({ autoSync: false, runJobs: false });
  const envelope = loadEnvelope('es-invoice-es-es.json');
  envelope.head.uuid = uuidv7();
  envelope.doc.uuid = uuidv7();
  const first = await t.call('POST', '/silo/v1/entries', { data: envelope, folder: 'bulk' });
  expect(first.status).toBe(200);
  // Copies of the stored row straight in SQLite: the export is under test here, not the 10,000 builds.
  // (Written with an origin, as every write to a synced table: its triggers record the changes.)
  const { db } = t.service;
  await db.tx(async () => db.sqlRun(`
    WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${COUNT - 1})
    INSERT INTO entries (id, company_id, key, folder, state, context, draft, invalid, signed, doc_schema, doc_uuid, env_schema,
      digest_alg, digest_val, snippet, tags, faults, data, issue_date, request_hash, version, created_at, updated_at)
    SELECT printf('00000000-0000-7000-8000-%012d', i), company_id, NULL, folder, state, context, draft, invalid, signed, doc_schema, NULL,
      env_schema, digest_alg, digest_val, snippet, tags, faults,
      json_set(data, '$.doc.code', printf('BULK-%05d', i), '$.doc.notes', json_array(json_object('text', '${NOTE}'))),
      issue_date, request_hash || i, version, created_at, updated_at
    FROM entries, n WHERE id = '${first.body.id}'`), { origin: 'local' });
}, 120_000);

afterAll(() => t.close());

/** Runs `work` while sampling the heap: answers the most it grew above where it started. */
async function peakHeapGrowth<T>(work: () => Promise<T>): Promise<{ result: T; growth: number }> {
  globalThis.gc?.();
  const start = process.memoryUsage().heapUsed;
  let peak = start;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().heapUsed)), 5);
  try {
    const result = await work();
    peak = Math.max(peak, process.memoryUsage().heapUsed);
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

describe('an export of 10,000 entries', () => {
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
