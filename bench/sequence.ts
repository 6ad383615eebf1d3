// Sequence benchmark: how fast a series issues entries (each one numbered,
// chained, ES256-signed and written in its own transaction), in-process and over
// HTTP with 1 and 8 clients, beside a bare better-sqlite3 insert of the same rows
// (same columns and bytes, same head update, one transaction per row). Also the
// cost of the signature alone, and of verifying the whole chain.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { v4 as uuidv4 } from 'uuid';
import { ensureDefaultCompany, ensureOwnerTokenFile } from '../src-main/core/access/bootstrap.ts';
import type { Ctx } from '../src-main/core/api/handler.ts';
import { openSqlite } from '../src-main/core/db/connection.ts';
import { migrateToLatest } from '../src-main/core/db/migrate.ts';
import { Store } from '../src-main/core/db/store.ts';
import { issueEntry } from '../src-main/core/sequence/issue.ts';
import { putSeries } from '../src-main/core/sequence/series.ts';
import { verifySeries } from '../src-main/core/sequence/verify.ts';
import { openService } from '../src-main/core/service.ts';
import { runPool, timedFetch } from './lib/http.ts';
import type { Benchmark, BenchOutput, Figure } from './lib/report.ts';
import { startServers, type Servers } from './lib/servers.ts';
import { summarize } from './lib/stats.ts';

const ENTRIES = intEnv('BENCH_SEQUENCE_ENTRIES', 5_000);
const HTTP_ENTRIES = intEnv('BENCH_SEQUENCE_HTTP_ENTRIES', 2_000);
const HTTP_CLIENTS = 8;
const META = { customer: 'B85905495', total: '1210.00', doc: 'bill/invoice' };

const benchmark: Benchmark = {
  name: 'sequence',
  title: 'series entries issued per second (numbered, chained, signed)',
  run,
};
export default benchmark;

/** The same run, for a caller that wires benchmarks by name. */
export const runSequenceBench = (): Promise<BenchOutput> => run();

async function run(): Promise<BenchOutput> {
  const dataDir = mkdtempSync(join(tmpdir(), 'silodesk-bench-seq-'));
  const bareDir = mkdtempSync(join(tmpdir(), 'silodesk-bench-seq-bare-'));
  const figures: Figure[] = [];
  const notes: string[] = [];
  let servers: Servers | undefined;
  try {
    // ── in-process: issueEntry, the function PUT …/entries/{id} runs
    const service = await openService(dataDir);
    const company = ensureDefaultCompany(service.store);
    ensureOwnerTokenFile(service.store, company, join(dataDir, 'api-token'));
    const token = readFileSync(join(dataDir, 'api-token'), 'utf8').trim();
    const ctx: Ctx = { service, caller: { companyId: company.id, kind: 'owner' } };
    const series = (code: string) =>
      putSeries(ctx, uuidv4(), { name: code, description: '', code, prefix: `${code}-`, padding: 6, suffix: '/26', start: 1 }).id;

    const inProcessSeries = series('INP');
    const ids = Array.from({ length: ENTRIES }, () => uuidv4());
    const t0 = performance.now();
    for (const id of ids) issueEntry(ctx, inProcessSeries, id, { meta: META });
    const inProcessRate = ENTRIES / ((performance.now() - t0) / 1000);

    // What one issued row holds, to write the very same bytes bare.
    const sample = service.store.sqlite.prepare('SELECT * FROM series_entries WHERE series_id = ? AND idx = 2').get(inProcessSeries) as Record<string, unknown>;

    const signs = 2_000;
    const s0 = performance.now();
    for (let i = 0; i < signs; i++) service.keys.sign({ series_id: inProcessSeries, index: i, meta: META });
    const signRate = signs / ((performance.now() - s0) / 1000);

    const v0 = performance.now();
    const verified = await verifySeries(ctx, inProcessSeries);
    const verifyRate = verified.count / ((performance.now() - v0) / 1000);
    if (!verified.valid || verified.count !== ENTRIES) throw new Error(`chain did not verify: ${JSON.stringify(verified)}`);

    const serialSeries = series('SER');
    const concurrentSeries = series('CON');
    await service.close();

    // ── bare: same rows, same columns, same head update, one transaction each
    const bareRate = await bareInsertRate(bareDir, sample, ENTRIES);

    // ── over HTTP (server in a worker thread): 1 client, then 8
    servers = await startServers(dataDir);
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const body = JSON.stringify({ meta: META });
    const overHttp = async (seriesId: string, clients: number) => {
      const latency: number[] = [];
      const h0 = performance.now();
      await runPool(HTTP_ENTRIES, clients, async () => {
        const r = await timedFetch(`${servers!.apiUrl}/sequence/v1/series/${seriesId}/entries/${uuidv4()}`, { method: 'PUT', headers, body });
        if (r.status !== 200) throw new Error(`PUT entry → ${r.status}: ${r.text.slice(0, 300)}`);
        latency.push(r.ms);
      });
      return { rate: HTTP_ENTRIES / ((performance.now() - h0) / 1000), latency: summarize(latency) };
    };
    const serial = await overHttp(serialSeries, 1);
    const concurrent = await overHttp(concurrentSeries, HTTP_CLIENTS);
    await servers.close();
    servers = undefined;

    const check = await openService(dataDir);
    const checkCtx: Ctx = { service: check, caller: ctx.caller };
    for (const id of [serialSeries, concurrentSeries]) {
      const r = await verifySeries(checkCtx, id);
      if (!r.valid || r.count !== HTTP_ENTRIES) throw new Error(`HTTP series ${id} did not verify: ${JSON.stringify(r)}`);
    }
    await check.close();

    const group = 'issue';
    figures.push(
      { group, name: 'bare better-sqlite3 insert + head update, 1 tx/row', value: bareRate, unit: 'entries/s', detail: { entries: ENTRIES } },
      { group, name: `in-process issueEntry (${ENTRIES})`, value: inProcessRate, unit: 'entries/s', ratio: inProcessRate / bareRate, ratioOf: 'bare' },
      {
        group,
        name: `HTTP PUT, 1 client (${HTTP_ENTRIES})`,
        value: serial.rate,
        unit: 'entries/s',
        ratio: serial.rate / bareRate,
        ratioOf: 'bare',
        detail: { latency_ms: serial.latency },
      },
      {
        group,
        name: `HTTP PUT, ${HTTP_CLIENTS} clients (${HTTP_ENTRIES})`,
        value: concurrent.rate,
        unit: 'entries/s',
        ratio: concurrent.rate / bareRate,
        ratioOf: 'bare',
        detail: { latency_ms: concurrent.latency },
      },
      { group, name: `HTTP PUT latency, ${HTTP_CLIENTS} clients`, value: concurrent.latency.median, p95: concurrent.latency.p95, unit: 'ms' },
      { group: 'crypto', name: 'ES256 sign alone', value: signRate, unit: 'signs/s' },
      { group: 'crypto', name: `verify chain (${ENTRIES} entries)`, value: verifyRate, unit: 'entries/s' },
    );
    notes.push(
      `issued/bare: in-process ${(inProcessRate / bareRate).toFixed(2)}×, HTTP 1 client ${(serial.rate / bareRate).toFixed(2)}×, ` +
        `HTTP ${HTTP_CLIENTS} clients ${(concurrent.rate / bareRate).toFixed(2)}×`,
      'every HTTP-issued series was verified afterwards: gapless, unique, chain valid',
    );
    return { figures, notes, setup: { entries: ENTRIES, http_entries: HTTP_ENTRIES, http_clients: HTTP_CLIENTS } };
  } finally {
    await servers?.close();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(bareDir, { recursive: true, force: true });
  }
}

/** The floor: the same schema, pragmas and row bytes, with nothing computed per row. */
async function bareInsertRate(dir: string, sample: Record<string, unknown>, count: number): Promise<number> {
  const sqlite = openSqlite(join(dir, 'bare.db'));
  const store = new Store(sqlite);
  await migrateToLatest(sqlite, store.q, join(dir, 'backups'));
  const at = new Date().toISOString();
  sqlite.prepare(`INSERT INTO companies VALUES ('c', 'bench', ?, ?)`).run(at, at);
  sqlite
    .prepare(
      `INSERT INTO series (id, company_id, name, description, code, prefix, padding, suffix, start, issuer, last_index, last_entry_id, sigs, request_hash, created_at, updated_at)
       VALUES ('s', 'c', 'bare', '', 'B', 'B-', 6, '/26', 1, 'i', 0, NULL, '[]', '', ?, ?)`,
    )
    .run(at, at);
  const insert = sqlite.prepare(
    `INSERT INTO series_entries (id, series_id, idx, code, meta, previous_id, sigs, request_hash, created_at, updated_at)
     VALUES (?, 's', ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const head = sqlite.prepare(`UPDATE series SET last_index = ?, last_entry_id = ?, updated_at = ? WHERE id = 's'`);
  const write = sqlite.transaction((id: string, idx: number, previous: string | null) => {
    insert.run(id, idx, sample.code, sample.meta, previous, sample.sigs, sample.request_hash, sample.created_at, sample.created_at);
    head.run(idx, id, sample.created_at);
  });
  const ids = Array.from({ length: count }, () => uuidv4());
  const t0 = performance.now();
  let previous: string | null = null;
  for (let i = 0; i < count; i++) {
    write.immediate(ids[i], i + 1, previous);
    previous = ids[i];
  }
  const rate = count / ((performance.now() - t0) / 1000);
  sqlite.close();
  return rate;
}

function intEnv(name: string, fallback: number): number {
  const v = process.env[name];
  if (v === undefined || v === '') return fallback;
  const n = Number(v);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`${name} must be a positive integer (got ${v})`);
  return n;
}
