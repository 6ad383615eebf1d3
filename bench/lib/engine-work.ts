// The work the engine comparison (bench/engines.ts) times, one run of it on one served
// instance: the same requests over the same HTTP whichever engine keeps the records.
// Each checks what it did (every import stored, every series verified, every pushed
// entry held by the remote), so a fast figure is never one of failed requests.
import { v4 as uuidv4 } from 'uuid';
import { ensureDefaultCompany } from '../../src-main/core/access/bootstrap.ts';
import type { Ctx } from '../../src-main/core/api/handler.ts';
import { putSeries } from '../../src-main/core/sequence/series.ts';
import { openService } from '../../src-main/core/service.ts';
import { importEntries } from '../../src-main/core/silo/import.ts';
import { loadEnvelopes } from '../../test/fixtures/gobl/load.ts';
import { EntryFactory } from './entries.ts';
import { getJson, runPool, timedFetch } from './http.ts';
import type { Instance } from './instance.ts';
import { summarize, type Summary } from './stats.ts';
import { ownerOfCompany } from '../../src-main/core/access/company-key.ts';

const auth = (token: string) => ({ authorization: `Bearer ${token}` });

/** Stores `count` entries through the service's own bulk import, in this process (setup: not timed). */
export async function fill(instance: Instance, count: number, seed: number): Promise<void> {
  const service = await instance.open();
  try {
    const ctx: Ctx = { service, caller: await ownerOfCompany(service.db, instance.companyId) };
    const factory = new EntryFactory(loadEnvelopes(), { seed });
    for (let done = 0; done < count; done += 1000) {
      const batch = Array.from({ length: Math.min(1000, count - done) }, () => factory.next());
      const result = await importEntries(ctx, batch.map((e) => ({ id: e.id, data: e.data })));
      if (result.failed > 0) throw new Error(`${result.failed} entries failed to import: ${JSON.stringify(result.results.find((r) => r.error)?.error)}`);
    }
  } finally {
    await service.close();
  }
}

/** `reps` reads of the first list page (20 entries), one after another, after a warm-up: their latencies. */
export async function readListPage(apiUrl: string, token: string, reps: number, warmup = 20): Promise<Summary> {
  const ms: number[] = [];
  for (let i = 0; i < warmup + reps; i++) {
    const r = await timedFetch(`${apiUrl}/silo/v1/entries?limit=20`, { headers: auth(token) });
    if (r.status !== 200) throw new Error(`GET /silo/v1/entries → ${r.status}: ${r.text.slice(0, 200)}`);
    if (i === 0 && JSON.parse(r.text).list?.length !== 20) throw new Error(`the list page holds ${JSON.parse(r.text).list?.length} entries, not 20`);
    if (i >= warmup) ms.push(r.ms);
  }
  return summarize(ms);
}

/**
 * POST /silo/v1/import of `batches` × 1,000 entries, one request at a time, on the
 * instance (fresh), after a warm-up request of 1,000: entries per second of wall time.
 */
export async function bulkImport(apiUrl: string, token: string, batches: number, seed: number): Promise<number> {
  const factory = new EntryFactory(loadEnvelopes(), { seed });
  // Serialised before the clock starts, as bench/lib/import-http.ts does.
  const body = () => JSON.stringify({ entries: Array.from({ length: 1000 }, () => factory.next()).map((e) => ({ id: e.id, data: e.data })) });
  const post = async (text: string) => {
    const r = await timedFetch(`${apiUrl}/silo/v1/import`, { method: 'POST', headers: { ...auth(token), 'content-type': 'application/json' }, body: text });
    if (r.status !== 200) throw new Error(`POST /silo/v1/import → ${r.status}: ${r.text.slice(0, 200)}`);
    const result = JSON.parse(r.text);
    if (result.created !== 1000) throw new Error(`import stored ${result.created} of 1000: ${JSON.stringify(result.results.find((x: any) => x.error)?.error)}`);
  };
  await post(body());
  const bodies = Array.from({ length: batches }, body);
  const t0 = performance.now();
  for (const text of bodies) await post(text);
  return (batches * 1000) / ((performance.now() - t0) / 1000);
}

/** A new series on the instance (in this process, before it is served): its id. */
export async function newSeries(instance: Instance, code: string): Promise<string> {
  const service = await instance.open();
  try {
    const ctx: Ctx = { service, caller: await ownerOfCompany(service.db, instance.companyId) };
    return (await putSeries(ctx, uuidv4(), { name: code, description: '', code, prefix: `${code}-`, padding: 6, suffix: '/26', start: 1 })).id;
  } finally {
    await service.close();
  }
}

/**
 * `count` entries issued in a series over HTTP (PUT, each numbered, chained, signed) by
 * `clients` clients at once: entries per second; the series is then verified over HTTP.
 */
export async function issueSeries(apiUrl: string, token: string, seriesId: string, count: number, clients: number): Promise<number> {
  const headers = { ...auth(token), 'content-type': 'application/json' };
  const body = JSON.stringify({ meta: { customer: 'B85905495', total: '1210.00', doc: 'bill/invoice' } });
  const t0 = performance.now();
  await runPool(count, clients, async () => {
    const r = await timedFetch(`${apiUrl}/sequence/v1/series/${seriesId}/entries/${uuidv4()}`, { method: 'PUT', headers, body });
    if (r.status !== 200) throw new Error(`PUT series entry → ${r.status}: ${r.text.slice(0, 200)}`);
  });
  const rate = count / ((performance.now() - t0) / 1000);
  const v = await getJson<{ valid: boolean; count: number }>(`${apiUrl}/sequence/v1/series/${seriesId}/verify`, auth(token));
  if (!v.valid || v.count !== count) throw new Error(`the series did not verify: ${JSON.stringify(v)}`);
  return rate;
}

/**
 * The first sync from a local desktop instance (SQLite, data dir `localDir`, holding
 * `entries` entries) to the served remote at `apiUrl`: seconds the push took. The
 * remote is checked afterwards, by the caller, to hold every entry.
 */
export async function syncPush(localDir: string, remoteUrl: string, remoteToken: string, entries: number): Promise<{ seconds: number; records: number }> {
  const local = await openService(localDir, { runJobs: false, autoSync: false });
  try {
    const company = await ensureDefaultCompany(local.db);
    await local.sync.configure(company.key, { remote_url: remoteUrl, token: remoteToken, interval_minutes: 0, paused: false });
    const t0 = performance.now();
    const status = await local.sync.syncNow(company.key);
    const seconds = (performance.now() - t0) / 1000;
    if (status.last_error) throw new Error(`sync failed: ${JSON.stringify(status.last_error)}`);
    if (status.progress!.pushed < entries) throw new Error(`sync pushed ${status.progress!.pushed} records, fewer than the ${entries} entries`);
    return { seconds, records: status.progress!.pushed };
  } finally {
    await local.close();
  }
}

/** How many entries an instance holds (opened in this process, after its server closed). */
export async function entryCount(instance: Instance): Promise<number> {
  const service = await instance.open();
  try {
    return (await service.db.sqlFirst<{ n: number }>('SELECT count(*) AS n FROM entries'))!.n;
  } finally {
    await service.close();
  }
}
