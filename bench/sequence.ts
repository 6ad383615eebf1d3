// Sequence benchmark: how fast a series issues entries over HTTP (each numbered,
// chained, ES256-signed and written in its own transaction) with 1 and 8 clients,
// beside the floor: the same row inserted with prepared statements, the series head
// updated and the entry signed, one transaction per entry, per CPU-second of one core.
// The goal: ≥ 2,000 entries/s with 8 clients, ≥ 0.5× that floor.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { v4 as uuidv4 } from 'uuid';
import { ensureDefaultCompany, ensureOwnerTokenFile } from '../src-main/core/access/bootstrap.ts';
import type { Ctx } from '../src-main/core/api/handler.ts';
import { issueEntry } from '../src-main/core/sequence/issue.ts';
import { putSeries } from '../src-main/core/sequence/series.ts';
import { verifySeries } from '../src-main/core/sequence/verify.ts';
import { openService } from '../src-main/core/service.ts';
import { runPool, timedFetch } from './lib/http.ts';
import type { Aim, Benchmark, BenchOptions, BenchOutput, Figure } from './lib/report.ts';
import { startServers } from './lib/servers.ts';
import { median, spreadOf, summarize } from './lib/stats.ts';

const HTTP_ENTRIES = 2_000;
const FLOOR_ENTRIES = 3_000;
const CLIENTS = 8;
const META = { customer: 'B85905495', total: '1210.00', doc: 'bill/invoice' };

const SERIES_AIM: Aim = { op: '>=', value: 2_000, on: 'figure', goal: 'series entries ≥ 2,000/s with 8 clients' };
const SERIES_FLOOR_AIM: Aim = { op: '>=', value: 0.5, on: 'ratio', goal: 'series entries ≥ 0.5× the insert + sign floor' };

const benchmark: Benchmark = {
  name: 'sequence',
  title: 'series entries issued per second over HTTP (numbered, chained, signed)',
  run,
};
export default benchmark;

const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

async function run(options: BenchOptions): Promise<BenchOutput> {
  const dataDir = mkdtempSync(join(tmpdir(), 'silodesk-bench-seq-'));
  try {
    const service = await openService(dataDir, { runJobs: false, autoSync: false });
    const company = await ensureDefaultCompany(service.db);
    await ensureOwnerTokenFile(service.db, company, join(dataDir, 'api-token'));
    const token = readFileSync(join(dataDir, 'api-token'), 'utf8').trim();
    const ctx: Ctx = { service, caller: { companyKey: company.key, companyId: company.id, kind: 'owner' } };
    const series = async (code: string) =>
      (await putSeries(ctx, uuidv4(), { name: code, description: '', code, prefix: `${code}-`, padding: 6, suffix: '/26', start: 1 })).id;

    // One issued row, to write the very same bytes in the floor.
    const sample = await series('SMP');
    await issueEntry(ctx, sample, uuidv4(), { meta: META });
    const row = (await service.db.sqlFirst('SELECT * FROM series_entries WHERE series_id = ?', [sample]))!;
    const floors: number[] = [];
    for (let r = 0; r < options.runs; r++) floors.push(await floorRate(service, company.key, row));

    const runs: Array<{ one: string; eight: string }> = [];
    for (let r = 0; r < options.runs; r++) runs.push({ one: await series(`ONE${r}`), eight: await series(`EIG${r}`) });
    await service.close();

    const servers = await startServers(dataDir, { runJobs: false });
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const body = JSON.stringify({ meta: META });
    const overHttp = async (seriesId: string, clients: number) => {
      const latency: number[] = [];
      let throttled = 0;
      const t0 = performance.now();
      await runPool(HTTP_ENTRIES, clients, async () => {
        const r = await timedFetch(`${servers.apiUrl}/sequence/v1/series/${seriesId}/entries/${uuidv4()}`, { method: 'PUT', headers, body });
        if (r.status === 429) throttled++;
        else if (r.status !== 200) throw new Error(`PUT entry → ${r.status}: ${r.text.slice(0, 300)}`);
        latency.push(r.ms);
      });
      return { rate: HTTP_ENTRIES / ((performance.now() - t0) / 1000), latency: summarize(latency), throttled };
    };
    const one: number[] = [];
    const eight: number[] = [];
    let latency8 = summarize([]);
    let throttled = 0;
    let longestBlock = 0;
    let controlBlock = 0;
    try {
      await servers.loopDelay();
      for (const r of runs) {
        const a = await overHttp(r.one, 1);
        const b = await overHttp(r.eight, CLIENTS);
        one.push(a.rate);
        eight.push(b.rate);
        latency8 = b.latency;
        throttled += a.throttled + b.throttled;
      }
      const block = await servers.loopDelay();
      longestBlock = block.max;
      controlBlock = block.control ?? NaN;
    } finally {
      await servers.close();
    }

    const check = await openService(dataDir, { runJobs: false, autoSync: false });
    try {
      for (const r of runs) {
        for (const id of [r.one, r.eight]) {
          const v = await verifySeries({ service: check, caller: ctx.caller }, id);
          if (!v.valid || v.count !== HTTP_ENTRIES) throw new Error(`series ${id} did not verify: ${JSON.stringify(v)}`);
        }
      }
    } finally {
      await check.close();
    }

    const floor = median(floors);
    const group = `issue (median of ${options.runs} runs)`;
    const figures: Figure[] = [
      { group, name: 'floor: insert + head update + ES256 sign, 1 tx/entry', value: floor, unit: 'entries/s', spread: spreadOf(floors), detail: { per: 'CPU-second of one core' } },
      { group, name: `HTTP PUT, 1 client (${HTTP_ENTRIES})`, value: median(one), unit: 'entries/s', spread: spreadOf(one), ratio: median(one) / floor, ratioOf: 'floor' },
      {
        group,
        name: `HTTP PUT, ${CLIENTS} clients (${HTTP_ENTRIES})`,
        value: median(eight),
        unit: 'entries/s',
        spread: spreadOf(eight),
        ratio: median(eight) / floor,
        ratioOf: 'floor',
        aim: SERIES_AIM,
        detail: { latency_ms: latency8 },
      },
      { group, name: `  against the floor`, value: median(eight), unit: 'entries/s', ratio: median(eight) / floor, ratioOf: 'floor', aim: SERIES_FLOOR_AIM },
      { group, name: `  latency, ${CLIENTS} clients`, value: latency8.median, unit: 'ms', p99: latency8.p99 },
      { group, name: 'longest event-loop block', value: longestBlock, unit: 'ms', aim: { op: '<=', value: 50, on: 'figure', goal: 'no operation blocks the event loop for more than 50 ms' } },
        { group, name: '  an idle thread meanwhile (the machine’s own share)', value: controlBlock, unit: 'ms' },
      { group, name: '429 answers to the owner’s own tool', value: throttled, unit: 'answers', aim: { op: '<=', value: 0, on: 'figure', goal: 'rate limits never throttle the owner’s own local tools' } },
    ];
    return {
      figures,
      notes: [
        'every HTTP-issued series was verified afterwards: gapless, unique, chain valid',
        'floor: the same row bytes and head update with prepared statements, plus the ES256 signature, one transaction per entry, per CPU-second (the machine is shared)',
      ],
      setup: { http_entries: HTTP_ENTRIES, floor_entries: FLOOR_ENTRIES, clients: CLIENTS, runs: options.runs },
    };
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * Entries per CPU-second: insert the sample row again (new id, next index), update the
 * head, sign; one transaction each. The statements are raw prepared ones; the
 * transaction is the data layer's, the only way to open the write scope its change
 * trigger needs (write-scopes.ts), so its own cost is part of the floor.
 */
async function floorRate(service: Awaited<ReturnType<typeof openService>>, companyId: string, sample: Record<string, unknown>): Promise<number> {
  const db = service.db.sqlite!;
  const at = new Date().toISOString();
  const seriesId = uuidv4();
  await service.db.tx(async () => {
    db.prepare(
      `INSERT INTO series (id, company_id, name, description, code, prefix, padding, suffix, start, issuer, last_index, last_entry_id, sigs, request_hash, created_at, updated_at)
       VALUES (?, ?, 'floor', '', 'F', 'F-', 6, '/26', 1, 'i', 0, NULL, '[]', '', ?, ?)`,
    ).run(seriesId, companyId, at, at);
  }, { origin: 'local' });
  const insert = db.prepare(
    `INSERT INTO series_entries (id, company_id, series_id, idx, code, meta, previous_id, sigs, request_hash, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const head = db.prepare('UPDATE series SET last_index = ?, last_entry_id = ?, updated_at = ? WHERE company_id = ? AND id = ?');
  // raw writes to a synced table run in a write scope with its origin (write-scopes.ts): the trigger records the change
  const write = (id: string, idx: number, previous: string | null) =>
    service.db.tx(async () => {
      const sig = service.keys.sign({ series_id: seriesId, index: idx, previous, meta: META });
      insert.run(id, companyId, seriesId, idx, sample.code, sample.meta, previous, JSON.stringify([sig]), sample.request_hash, at, at);
      head.run(idx, id, at, companyId, seriesId);
    }, { origin: 'local' });
  const ids = Array.from({ length: FLOOR_ENTRIES }, () => uuidv4());
  const t0 = cpuMs();
  let previous: string | null = null;
  for (let i = 0; i < FLOOR_ENTRIES; i++) {
    await write(ids[i], i + 1, previous);
    previous = ids[i];
  }
  return FLOOR_ENTRIES / ((cpuMs() - t0) / 1000);
}
