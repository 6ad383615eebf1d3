// Silo benchmark: import speed (in-process and over HTTP), list / related /
// search latency over HTTP against the same query straight on SQLite plus a bare
// HTTP round trip, and storage per entry. All on a fresh temp data dir.
import Database from 'better-sqlite3';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { ensureDefaultCompany, ensureOwnerTokenFile } from '../src-main/core/access/bootstrap.ts';
import type { Ctx } from '../src-main/core/api/handler.ts';
import { openService } from '../src-main/core/service.ts';
import { createEntry } from '../src-main/core/silo/entries.ts';
import { importEntries } from '../src-main/core/silo/import.ts';
import { loadEnvelopes } from '../test/fixtures/gobl/load.ts';
import { EntryFactory } from './lib/entries.ts';
import { getJson, runPool, timedFetch } from './lib/http.ts';
import type { Aim, Benchmark, BenchOutput, Figure } from './lib/report.ts';
import { startServers, type Servers } from './lib/servers.ts';
import { MB, maxRssBytes, rssSampler, summarize, type Summary } from './lib/stats.ts';

const ENTRIES = intEnv('BENCH_SILO_ENTRIES', 20_000);
const HTTP_ENTRIES = intEnv('BENCH_SILO_HTTP_ENTRIES', 2_000);
const HTTP_CLIENTS = 8;
const IMPORT_BATCH = 500;
const SINGLE_ENTRIES = intEnv('BENCH_SILO_SINGLE_ENTRIES', 2_000);
/** timed repetitions per query (fewer when a query exhausts its time budget) */
const REPS = intEnv('BENCH_REPS', 200);
const WARMUP = 25;
const CASE_BUDGET_MS = 6_000;
const MIN_REPS = 30;

const IMPORT_AIM: Aim = { op: '>=', value: 3000, on: 'figure' };
const LIST_AIM: Aim = { op: '<=', value: 3, on: 'ratio' };

const benchmark: Benchmark = {
  name: 'silo',
  title: 'import, list, related and search',
  run,
};
export default benchmark;

async function run(): Promise<BenchOutput> {
  const dataDir = mkdtempSync(join(tmpdir(), 'silodesk-bench-'));
  const dbFile = join(dataDir, 'silodesk.db');
  const figures: Figure[] = [];
  const notes: string[] = [];
  let servers: Servers | undefined;
  let raw: Database.Database | undefined;
  try {
    // ── 1. import in-process, through createEntry (the code PUT /silo/v1/entries/{id} runs)
    const service = await openService(dataDir);
    const company = ensureDefaultCompany(service.store);
    ensureOwnerTokenFile(service.store, company, join(dataDir, 'api-token'));
    const token = readFileSync(join(dataDir, 'api-token'), 'utf8').trim();
    const ctx: Ctx = { service, caller: { companyId: company.id, kind: 'owner' } };
    const factory = new EntryFactory(loadEnvelopes());

    const rssBefore = process.memoryUsage.rss();
    let rssPeak = rssBefore;
    // Bulk import (POST /silo/v1/import's code): batches of IMPORT_BATCH in one transaction each.
    const bulkCount = ENTRIES - SINGLE_ENTRIES;
    let busyMs = 0;
    const wall0 = performance.now();
    for (let done = 0; done < bulkCount; done += IMPORT_BATCH) {
      const batch = Array.from({ length: Math.min(IMPORT_BATCH, bulkCount - done) }, () => {
        const e = factory.next();
        return { id: e.id, data: e.data };
      });
      const t0 = performance.now();
      const result = importEntries(ctx, batch);
      busyMs += performance.now() - t0;
      if (result.created !== batch.length) throw new Error(`bulk import stored ${result.created} of ${batch.length}`);
      rssPeak = Math.max(rssPeak, process.memoryUsage.rss());
    }
    const wallMs = performance.now() - wall0;
    const bulkRate = bulkCount / (busyMs / 1000);

    // One entry per call and per transaction (PUT /silo/v1/entries/{id}'s code).
    let singleMs = 0;
    for (let i = 0; i < SINGLE_ENTRIES; i++) {
      const e = factory.next();
      const t0 = performance.now();
      createEntry(ctx, e.id, { data: e.data });
      singleMs += performance.now() - t0;
    }
    rssPeak = Math.max(rssPeak, process.memoryUsage.rss());
    const inProcessRate = SINGLE_ENTRIES / (singleMs / 1000);
    await service.close();

    figures.push(
      {
        group: 'import',
        name: `in-process bulk import (${fmtInt(bulkCount)}, ${IMPORT_BATCH} a batch)`,
        value: bulkRate,
        unit: 'entries/s',
        aim: IMPORT_AIM,
        detail: { entries: bulkCount, batch: IMPORT_BATCH, import_ms: busyMs, wall_ms: wallMs },
      },
      {
        group: 'import',
        name: `in-process createEntry, one per transaction (${fmtInt(SINGLE_ENTRIES)})`,
        value: inProcessRate,
        unit: 'entries/s',
        ratio: inProcessRate / bulkRate,
        ratioOf: 'bulk',
        detail: { entries: SINGLE_ENTRIES, create_ms: singleMs },
      },
    );

    // ── 1b. import over HTTP: PUT with the bearer token, 8 concurrent clients
    servers = await startServers(dataDir);
    const { apiUrl, bareUrl } = servers;
    const auth = { authorization: `Bearer ${token}` };
    const putHeaders = { ...auth, 'content-type': 'application/json' };
    const putLatency: number[] = [];
    const sampler = rssSampler();
    const serverElu0 = servers.serverUtilization();
    const clientElu0 = performance.eventLoopUtilization();
    const http0 = performance.now();
    await runPool(HTTP_ENTRIES, HTTP_CLIENTS, async () => {
      const e = factory.next();
      const r = await timedFetch(`${apiUrl}/silo/v1/entries/${e.id}`, {
        method: 'PUT',
        headers: putHeaders,
        body: JSON.stringify({ data: e.data }),
      });
      if (r.status !== 200) throw new Error(`PUT /silo/v1/entries/${e.id} → ${r.status}: ${r.text.slice(0, 300)}`);
      putLatency.push(r.ms);
    });
    const httpMs = performance.now() - http0;
    const serverBusy = servers.serverUtilization(serverElu0).utilization;
    const clientBusy = performance.eventLoopUtilization(clientElu0).utilization;
    const rssPeakHttp = sampler.stop();
    const httpRate = HTTP_ENTRIES / (httpMs / 1000);
    const put = summarize(putLatency);
    figures.push(
      {
        group: 'import',
        name: `HTTP PUT, ${HTTP_CLIENTS} clients (${fmtInt(HTTP_ENTRIES)})`,
        value: httpRate,
        unit: 'entries/s',
        ratio: httpRate / inProcessRate,
        ratioOf: 'in-process',
        detail: { entries: HTTP_ENTRIES, clients: HTTP_CLIENTS, wall_ms: httpMs, server_thread_busy: serverBusy, client_thread_busy: clientBusy },
      },
      { group: 'import', name: 'HTTP PUT latency', value: put.median, p95: put.p95, unit: 'ms', detail: { ...put } },
      { group: 'memory', name: 'RSS before import', value: rssBefore / MB, unit: 'MB' },
      {
        group: 'memory',
        name: 'peak RSS, in-process import',
        value: rssPeak / MB,
        unit: 'MB',
        ratio: rssPeak / rssBefore,
        ratioOf: 'before',
      },
      {
        group: 'memory',
        name: 'peak RSS, HTTP import (+ server thread)',
        value: rssPeakHttp / MB,
        unit: 'MB',
        ratio: rssPeakHttp / rssBefore,
        ratioOf: 'before',
        detail: { process_max_rss_mb: maxRssBytes() / MB },
      },
    );

    // ── 2. queries at the imported size: HTTP vs raw SQL + bare round trip
    raw = new Database(dbFile, { readonly: true });
    // The same page cache as the service's connection (src-main/core/db/connection.ts), or the
    // raw side would pay for reading pages the service has cached.
    raw.pragma('cache_size = -32000');
    raw.pragma('temp_store = MEMORY');
    const total = (raw.prepare('SELECT COUNT(*) AS n FROM entries').get() as { n: number }).n;
    if (total !== ENTRIES + HTTP_ENTRIES) notes.push(`expected ${ENTRIES + HTTP_ENTRIES} entries, found ${total}`);
    const companyId = company.id;

    // A deep page: walk the list with cursors to the middle, as a client would.
    let cursor: string | undefined;
    let lastRow: { created_at: string; id: string } | undefined;
    let depth = 0;
    while (depth < total / 2) {
      const page = await getJson(`${apiUrl}/silo/v1/entries?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, auth);
      depth += page.list.length;
      lastRow = page.list.at(-1);
      cursor = page.next_cursor;
      if (!cursor) break;
    }
    if (!cursor || !lastRow) throw new Error('could not walk to a deep page');
    const deepCursor = cursor;
    const deepPos = lastRow;

    // Related: invoices that credit notes point at.
    const credited = [...factory.credited.keys()];
    const step = Math.max(1, Math.floor(credited.length / 50));
    const targets = credited.filter((_, i) => i % step === 0).slice(0, 50);

    // Search: a supplier name on many entries, and one on few.
    const suppliers = [...factory.suppliers.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
    const common = suppliers[0][0];
    const rare =
      [...suppliers].reverse().find(([name]) => (name.match(/[\p{L}\p{N}]{3,}/gu) ?? []).length >= 2)?.[0] ?? suppliers.at(-1)![0];

    const listSql = raw.prepare('SELECT * FROM entries WHERE company_id = ? ORDER BY created_at DESC, id DESC LIMIT 21');
    const listAfterSql = raw.prepare(
      'SELECT * FROM entries WHERE company_id = ? AND (created_at, id) < (?, ?) ORDER BY created_at DESC, id DESC LIMIT 21',
    );
    // Driven from the mention index (few rows), then sorted: what a hand-written query does.
    const relatedSql = raw.prepare(
      `SELECT e.* FROM (
         SELECT DISTINCT m.entry_id FROM entries t
         JOIN mentions m ON m.company_id = t.company_id AND m.uuid IN (t.id, t.doc_uuid) AND m.entry_id <> t.id
         WHERE t.id = ? AND t.company_id = ?) r
       JOIN entries e ON e.id = r.entry_id
       WHERE e.company_id = ?
       ORDER BY e.created_at DESC, e.id DESC LIMIT 21`,
    );
    const searchSql = raw.prepare(
      `SELECT e.* FROM entries_fts f JOIN entries e ON e.seq = f.rowid
       WHERE entries_fts MATCH ? AND e.company_id = ?
       ORDER BY f.rank, e.created_at DESC LIMIT 21`,
    );

    type Row = { id: string };
    const cases: QueryCase[] = [
      {
        name: 'list, first page',
        path: () => '/silo/v1/entries?limit=20',
        raw: () => listSql.all(companyId) as Row[],
        aim: LIST_AIM,
      },
      {
        name: `list, deep page (after ${fmtInt(depth)})`,
        path: () => `/silo/v1/entries?limit=20&cursor=${encodeURIComponent(deepCursor)}`,
        raw: () => listAfterSql.all(companyId, deepPos.created_at, deepPos.id) as Row[],
        aim: LIST_AIM,
      },
      {
        name: 'related',
        path: (i) => `/silo/v1/entries/${targets[i % targets.length]}/related`,
        raw: (i) => relatedSql.all(targets[i % targets.length], companyId, companyId) as Row[],
      },
      {
        name: `search, ${factory.suppliers.get(rare)} hits`,
        path: () => `/silo/v1/search?q=${encodeURIComponent(rare)}`,
        raw: () => searchSql.all(ftsMatch(rare), companyId) as Row[],
      },
      {
        name: `search, ${fmtInt(factory.suppliers.get(common) ?? 0)} hits`,
        path: () => `/silo/v1/search?q=${encodeURIComponent(common)}`,
        raw: () => searchSql.all(ftsMatch(common), companyId) as Row[],
      },
    ];

    const group = `queries at ${fmtInt(total)} entries (median of ≤${REPS}, ${WARMUP} warm-up)`;
    const sizes: string[] = [];
    const relatedHits: number[] = [];
    for (const c of cases) {
      // The two sides must answer the same rows, or the comparison means nothing.
      for (let i = 0; i < (c.name === 'related' ? targets.length : 1); i++) {
        const viaHttp = (await getJson(apiUrl + c.path(i), auth)).list.map((e: Row) => e.id) as string[];
        const viaSql = c.raw(i).slice(0, 20).map((e) => e.id);
        if (c.name === 'related') relatedHits.push(viaHttp.length);
        if (viaHttp.length === 0) notes.push(`${c.name}: the HTTP answer is empty`);
        if (viaHttp.join() !== viaSql.join()) {
          const same = viaHttp.length === viaSql.length && viaHttp.every((id) => viaSql.includes(id));
          notes.push(`${c.name}: HTTP and raw SQL answer ${same ? 'the same rows in another order' : 'different rows'}`);
          break;
        }
      }
      const m = await measure(c, apiUrl, bareUrl, auth);
      sizes.push(`${c.name} ${(m.bytes / 1024).toFixed(1)} kB`);
      const floor = m.raw.median + m.bare.median;
      figures.push(
        {
          group,
          name: `${c.name} · HTTP`,
          value: m.http.median,
          p95: m.http.p95,
          unit: 'ms',
          ratio: m.http.median / floor,
          ratioOf: 'raw+bare',
          aim: c.aim,
          detail: { ...m.http, response_bytes: m.bytes, p95_ratio: m.http.p95 / (m.raw.p95 + m.bare.p95), path: c.path(0).replace(/cursor=[^&]+/, 'cursor=…') },
        },
        { group, name: `${c.name} · raw SQL`, value: m.raw.median, p95: m.raw.p95, unit: 'ms', detail: { ...m.raw } },
        { group, name: `${c.name} · bare round trip`, value: m.bare.median, p95: m.bare.p95, unit: 'ms', detail: { ...m.bare } },
      );
    }

    // ── 3. storage
    let breakdown = '';
    try {
      const pages = raw.prepare('SELECT name, SUM(pgsize) AS bytes FROM dbstat GROUP BY name').all() as Array<{ name: string; bytes: number }>;
      const buckets = new Map<string, number>();
      for (const p of pages) {
        const bucket = p.name.startsWith('entries_fts')
          ? 'full-text index'
          : p.name === 'entries'
            ? 'entries table'
            : p.name.startsWith('entries_') || p.name.startsWith('sqlite_autoindex_entries')
              ? 'entries indexes'
              : p.name === 'mentions' || p.name.startsWith('mentions_') || p.name.startsWith('sqlite_autoindex_mentions')
                ? 'mentions + indexes'
                : 'other';
        buckets.set(bucket, (buckets.get(bucket) ?? 0) + p.bytes);
      }
      const sum = [...buckets.values()].reduce((a, b) => a + b, 0);
      breakdown = [...buckets.entries()]
        .sort((a, b) => b[1] - a[1])
        .map(([k, v]) => `${k} ${(v / MB).toFixed(1)} MB (${Math.round((100 * v) / sum)}%)`)
        .join(', ');
    } catch {
      breakdown = '(dbstat not available in this SQLite build)';
    }
    const avg = raw
      .prepare('SELECT AVG(LENGTH(CAST(data AS BLOB))) AS data, AVG(LENGTH(CAST(snippet AS BLOB))) AS snippet FROM entries')
      .get() as { data: number; snippet: number };
    raw.close();
    raw = undefined;
    await servers.close(); // last connection: checkpoints the WAL into the file
    servers = undefined;

    const size = (f: string) => (existsSync(f) ? statSync(f).size : 0);
    const dbBytes = size(dbFile);
    const walBytes = size(`${dbFile}-wal`);
    const perEntry = (dbBytes + walBytes) / total;
    figures.push(
      { group: 'storage', name: 'database file', value: (dbBytes + walBytes) / MB, unit: 'MB', detail: { db_bytes: dbBytes, wal_bytes: walBytes } },
      {
        group: 'storage',
        name: 'bytes per entry',
        value: perEntry,
        unit: 'B/entry',
        ratio: perEntry / avg.data,
        ratioOf: 'envelope JSON',
        detail: { avg_envelope_json_bytes: avg.data, avg_snippet_bytes: avg.snippet },
      },
    );

    notes.push(
      `servers (service API and bare node:http) run in a worker thread; the client is global fetch with keep-alive on the main thread`,
      `in-process rate counts createEntry time only; with test-data generation (clone + uuids) the wall rate was ${fmtInt(ENTRIES / (wallMs / 1000))}/s`,
      `during the HTTP import the server thread was busy ${Math.round(serverBusy * 100)}% of the time, the client thread ${Math.round(clientBusy * 100)}%`,
      `ratio "raw+bare" = HTTP median / (raw SQL median + bare round-trip median)`,
      `deep page: cursor reached by walking limit=100 pages; related: ${targets.length} credited invoices in turn, ${relatedHits.length ? (relatedHits.reduce((a, b) => a + b, 0) / relatedHits.length).toFixed(1) : 0} related entries each on average`,
      `search terms: "${rare}" and "${common}"`,
      `response sizes: ${sizes.join(', ')} (bare: tiny fixed JSON)`,
      `space: ${breakdown}; envelope JSON averages ${fmtInt(avg.data)} B`,
    );
    return {
      figures,
      notes,
      setup: {
        entries_in_process: ENTRIES,
        entries_http: HTTP_ENTRIES,
        http_clients: HTTP_CLIENTS,
        reps: REPS,
        warmup: WARMUP,
        case_budget_ms: CASE_BUDGET_MS,
        search_terms: [rare, common],
        credit_notes: [...factory.credited.values()].reduce((a, b) => a + b, 0),
      },
    };
  } finally {
    raw?.close();
    await servers?.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

interface QueryCase {
  name: string;
  /** path and query of the HTTP request for repetition i */
  path: (i: number) => string;
  /** the hand-written SQL equivalent for repetition i */
  raw: (i: number) => Array<{ id: string }>;
  aim?: Aim;
}

/**
 * Times one query: each repetition runs the HTTP request, the raw SQL and the
 * bare round trip, in rotating order, so all three see the same conditions.
 */
async function measure(
  c: QueryCase,
  apiUrl: string,
  bareUrl: string,
  headers: Record<string, string>,
): Promise<{ http: Summary; raw: Summary; bare: Summary; bytes: number }> {
  const http: number[] = [];
  const sql: number[] = [];
  const bare: number[] = [];
  let bytes = 0;
  const started = performance.now();
  for (let i = 0; i < WARMUP + REPS; i++) {
    const timed = i >= WARMUP;
    const path = c.path(i);
    for (let k = 0; k < 3; k++) {
      const which = (i + k) % 3;
      if (which === 0) {
        const r = await timedFetch(apiUrl + path, { headers });
        if (r.status !== 200) throw new Error(`GET ${path} → ${r.status}: ${r.text.slice(0, 300)}`);
        bytes = r.bytes;
        if (timed) http.push(r.ms);
      } else if (which === 1) {
        const t0 = performance.now();
        c.raw(i);
        const ms = performance.now() - t0;
        if (timed) sql.push(ms);
      } else {
        const r = await timedFetch(bareUrl + path, { headers });
        if (r.status !== 200) throw new Error(`bare GET → ${r.status}`);
        if (timed) bare.push(r.ms);
      }
    }
    if (http.length >= MIN_REPS && performance.now() - started > CASE_BUDGET_MS) break;
  }
  return { http: summarize(http), raw: summarize(sql), bare: summarize(bare), bytes };
}

/** The FTS5 query the search box means: each word quoted, the last one a prefix. */
function ftsMatch(text: string): string {
  const words = text.normalize('NFKC').match(/[\p{L}\p{N}]+/gu) ?? [];
  return words.map((w, i) => `"${w}"${i === words.length - 1 ? '*' : ''}`).join(' ');
}

function intEnv(name: string, fallback: number): number {
  const v = process.env[name];
  if (v === undefined || v === '') return fallback;
  const n = Number(v);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`${name} must be a positive integer (got ${v})`);
  return n;
}

const fmtInt = (n: number) => Math.round(n).toLocaleString('en-US');
