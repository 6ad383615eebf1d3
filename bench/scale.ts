// `npm run bench -- --scale 1m`: the silo at a million entries. The database is built
// once through the service's own bulk import and kept in bench/.cache (dataset.ts);
// every run works on a copy of it, so what a run writes never reaches the cache.
// Reported: every read against the same-bytes yardstick (median and p99), folder and
// tag counts, list pages filtered to few entries or none (filtered-cases.ts), the slowest request and the longest event-loop block (also while an
// import runs), the import's cost per entry beside the same at 10,000 entries, cold
// start of `serve`, its RSS, size on disk per entry and the WAL while a reader holds
// a snapshot.
import Database from 'better-sqlite3';
import { existsSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { JOURNAL_SIZE_LIMIT } from '../src-main/core/db/connection.ts';
import { openService } from '../src-main/core/service.ts';
import { importEntriesSliced } from '../src-main/core/silo/import.ts';
import { loadEnvelopes } from '../test/fixtures/gobl/load.ts';
import { coldStartFigures, coldStartNote, coldStarts, SERVE } from './lib/cold-start.ts';
import { dataset, workingCopy, type Dataset } from './lib/dataset.ts';
import { EntryFactory } from './lib/entries.ts';
import { filteredReadCases, instanceIdOf, markSelective, recordReadCases } from './lib/filtered-cases.ts';
import { importCostRound } from './lib/import-cost.ts';
import { httpImport } from './lib/import-http.ts';
import type { Aim, Benchmark, BenchOptions, BenchOutput, Figure } from './lib/report.ts';
import { startServers } from './lib/servers.ts';
import { SLOWEST_AIM, timeSiloReads } from './lib/silo-cases.ts';
import { MB, median, spreadOf } from './lib/stats.ts';
import { BLOCK_AIM } from './silo.ts';
import { packedTextBytes } from '../src-main/core/silo/packed-document.ts';
import { ownerOfCompany } from '../src-main/core/access/company-key.ts';

const ENTRIES = 1_000_000;
const BASE_ENTRIES = 10_000;

const SIZE_AIM: Aim = { op: '<=', value: 2_500, on: 'figure', goal: '≤ 2.5 kB on disk per average entry' };
const WAL_AIM: Aim = { op: '<=', value: JOURNAL_SIZE_LIMIT / MB, on: 'figure', goal: 'WAL bounded' };
const FLAT_AIM: Aim = { op: '<=', value: 1.25, on: 'ratio', goal: 'per-entry import cost flat from 10k to 1M' };

const benchmark: Benchmark = {
  name: 'scale',
  title: 'the silo at a million entries',
  scale: '1m',
  run,
};
export default benchmark;

async function run(options: BenchOptions): Promise<BenchOutput> {
  const log = (line: string) => console.log(line);
  const ds = await dataset(ENTRIES, { rebuild: options.rebuildCache, log });
  const base = await dataset(BASE_ENTRIES, { log });
  const figures: Figure[] = [];
  const notes: string[] = [];
  const size = sizeOnDisk(ds);
  figures.push(
    { group: 'on disk', name: 'database file per entry', value: size.perEntry, unit: 'B', ratio: size.perEntry / size.jsonPerEntry, ratioOf: 'envelope JSON', aim: SIZE_AIM, detail: size },
    { group: 'on disk', name: 'envelope JSON per entry (what is stored, before packing)', value: size.jsonPerEntry, unit: 'B' },
  );
  notes.push(`space at ${ENTRIES.toLocaleString('en-US')} entries: ${size.breakdown}`);

  log('  copying the million-entry database to work on…');
  const copy = workingCopy(ds);
  try {
    // ── cold start of `serve` on it, its first page, and its RSS once it has served a while
    const cold = await coldStarts(copy, options.runs, (r) =>
      [
        '/silo/v1/entries?limit=20',
        `/silo/v1/entries/${ds.sampleIds[r % ds.sampleIds.length]}`,
        `/silo/v1/entries/${ds.hubs[r % ds.hubs.length]}/related`,
        `/silo/v1/search?q=${encodeURIComponent(ds.search.medium)}`,
      ][r % 4],
    );
    const opens: number[] = [];
    for (let i = 0; i < options.runs; i++) {
      const t0 = performance.now();
      const service = await openService(copy, { runJobs: false, autoSync: false });
      opens.push(performance.now() - t0);
      await service.close();
    }
    figures.push(
      ...coldStartFigures('serve', cold),
      { group: 'serve', name: '  of which opening the service (database, keys; modules loaded)', value: median(opens), unit: 'ms', spread: spreadOf(opens) },
      { group: 'serve', name: 'RSS after 200 reads', value: median(cold.rss) / MB, unit: 'MB', spread: spreadOf(cold.rss.map((r) => r / MB)) },
    );

    // ── every read, against the yardstick
    const servers = await startServers(copy, { yardstick: true, runJobs: false });
    try {
      await markSelective(ds, servers.apiUrl);
      const instanceId = await instanceIdOf(ds, servers.apiUrl);
      const reads = await timeSiloReads(
        servers,
        ds,
        // A p99 is an aim here: of 300 reads it was the third slowest, and one pause on either side decided it
        // (1.57–1.87× one run, 0.84–0.94× the next, for the same searches). Of 1,000 it is the tenth.
        { runs: options.runs, reps: 1_000, warmup: 10, budgetMs: 8_000, minReps: 100 },
        `reads at ${ENTRIES.toLocaleString('en-US')} entries (ms; median of ${options.runs} runs)`,
        true,
        [...filteredReadCases(), ...recordReadCases(instanceId)],
      );
      figures.push(...reads.figures);
      figures.push(
        { group: 'at a million entries', name: `slowest read request (${reads.slowest.name})`, value: reads.slowest.ms, unit: 'ms', aim: SLOWEST_AIM },
        { group: 'at a million entries', name: `longest event-loop block while reading (${reads.longestBlock.name})`, value: reads.longestBlock.ms, unit: 'ms', aim: BLOCK_AIM },
        { group: 'at a million entries', name: '  an idle thread meanwhile (the machine’s own share)', value: reads.longestBlock.control, unit: 'ms' },
        { group: 'at a million entries', name: `  the longest GC pause of the server thread meanwhile (${reads.longestBlock.gc.kind || 'none'})`, value: reads.longestBlock.gc.ms, unit: 'ms' },
      );
      notes.push(...reads.notes);
    } finally {
      await servers.close();
    }

    // ── an import over HTTP into it, with reads waiting on it
    const http = await httpImport(options.runs, 1, 1000, copy);
    figures.push(
      { group: 'at a million entries', name: 'POST /silo/v1/import of 1,000 entries', value: median(http.rates), unit: 'entries/s', spread: spreadOf(http.rates) },
      { group: 'at a million entries', name: `slowest list page read during the imports (${http.reads} reads)`, value: http.slowestRead, unit: 'ms', aim: SLOWEST_AIM },
      { group: 'at a million entries', name: 'longest event-loop block during the imports', value: http.longestBlock, unit: 'ms', aim: BLOCK_AIM },
      { group: 'at a million entries', name: '  an idle thread meanwhile (the machine’s own share)', value: http.controlBlock, unit: 'ms' },
    );

    // ── what an imported entry costs here, beside the same at 10,000 entries (CPU time)
    const at1m = await importCost(copy, ds.companyId, options.runs);
    const baseCopy = workingCopy(base);
    let at10k: { cold: number; steady: number };
    try {
      at10k = await importCost(baseCopy, base.companyId, options.runs);
    } finally {
      rmSync(baseCopy, { recursive: true, force: true });
    }
    figures.push(
      { group: 'import cost per entry (CPU)', name: `at ${BASE_ENTRIES.toLocaleString('en-US')} entries`, value: at10k.steady, unit: 'µs' },
      { group: 'import cost per entry (CPU)', name: `at ${ENTRIES.toLocaleString('en-US')} entries`, value: at1m.steady, unit: 'µs', ratio: at1m.steady / at10k.steady, ratioOf: `${BASE_ENTRIES / 1000}k`, aim: FLAT_AIM },
      { group: 'import cost per entry (CPU)', name: `  its first ${COLD_ENTRIES.toLocaleString('en-US')} after opening, at ${BASE_ENTRIES.toLocaleString('en-US')}`, value: at10k.cold, unit: 'µs' },
      { group: 'import cost per entry (CPU)', name: `  its first ${COLD_ENTRIES.toLocaleString('en-US')} after opening, at ${ENTRIES.toLocaleString('en-US')} (cold cache)`, value: at1m.cold, unit: 'µs', ratio: at1m.cold / at10k.cold, ratioOf: `${BASE_ENTRIES / 1000}k` },
    );

    // ── the WAL while a reader holds a snapshot, and after
    const wal = await walUnderReader(copy, ds.companyId);
    figures.push(
      { group: 'WAL', name: 'growth per 1,000 entries while a reader holds a snapshot', value: wal.growthPer1000 / MB, unit: 'MB' },
      { group: 'WAL', name: `after the reader let go (${wal.seconds_to_bounded.toFixed(1)} s later)`, value: wal.after / MB, unit: 'MB', aim: WAL_AIM, detail: wal },
    );
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
  notes.push(
    `dataset: ${ds.entries.toLocaleString('en-US')} entries, ${ds.cached ? `cached (built ${ds.built_at}${ds.upgraded_from ? `, migrated from ${ds.upgraded_from}` : ''})` : `built in ${Math.round(ds.build_seconds / 60)} min`}; every run works on a copy`,
    coldStartNote(SERVE),
  );
  return { figures, notes, setup: { entries: ENTRIES, runs: options.runs, schema: ds.schema } };
}

/** Bytes per entry of the database file (after a checkpoint), and where they go (cached beside the dataset: dbstat reads every page). */
function sizeOnDisk(ds: Dataset): { perEntry: number; jsonPerEntry: number; breakdown: string; bytes: number } {
  const cache = join(ds.dataDir, 'size.json');
  const bytes = statSync(ds.dbFile).size + (existsSync(`${ds.dbFile}-wal`) ? statSync(`${ds.dbFile}-wal`).size : 0);
  if (existsSync(cache)) {
    const kept = JSON.parse(readFileSync(cache, 'utf8'));
    if (kept.bytes === bytes) return kept;
  }
  const db = new Database(ds.dbFile, { readonly: true });
  try {
    // The envelope's JSON as sent and answered; the row may hold it packed (packed-document.ts), which its header says.
    const json = (db.prepare(`SELECT avg(${packedTextBytes('data')}) AS n FROM entries`).get() as { n: number }).n;
    const pages = db.prepare('SELECT name, sum(pgsize) AS bytes FROM dbstat GROUP BY name ORDER BY bytes DESC').all() as Array<{ name: string; bytes: number }>;
    const total = pages.reduce((a, p) => a + p.bytes, 0);
    const breakdown = pages
      .slice(0, 12)
      .map((p) => `${p.name} ${Math.round(p.bytes / ds.entries)} B`)
      .join(', ');
    const out = { perEntry: bytes / ds.entries, jsonPerEntry: json, breakdown: `${breakdown} (of ${Math.round(total / ds.entries)} B a entry)`, bytes };
    writeFileSync(cache, JSON.stringify(out));
    return out;
  } finally {
    db.close();
  }
}

/** Entries imported first after opening, whose cost is shown on its own: the cache is cold then. */
const COLD_ENTRIES = 2000;

/**
 * CPU µs an imported entry costs on the data dir (a copy): over the first COLD_ENTRIES
 * after opening it, and then (steady) the median of `runs` rounds of 1,000. A fresh copy
 * of the million-entry database starts with little of it cached: its first rounds spent
 * 949 of 2,037 ms in the kernel reading pages (1,756 and 1,038 µs an entry) before
 * settling at 828–841, while the 10,000-entry copy is cached whole from the start. The
 * aim is how the cost grows with the data, so it compares the steady rounds; the cold
 * ones are shown beside it, not dropped.
 */
async function importCost(dataDir: string, companyId: string, runs: number): Promise<{ cold: number; steady: number }> {
  const service = await openService(dataDir, { runJobs: false, autoSync: false });
  try {
    const factory = new EntryFactory(loadEnvelopes(), { seed: 31 });
    const perEntry = async (count: number) => {
      const r = await importCostRound(service, companyId, Array.from({ length: count }, () => factory.next()));
      return ((r.goblMs + r.writeMs) * 1000) / r.entries;
    };
    const cold = (await perEntry(COLD_ENTRIES / 2) + (await perEntry(COLD_ENTRIES / 2))) / 2;
    const steady: number[] = [];
    for (let i = 0; i < runs; i++) steady.push(await perEntry(1000));
    return { cold, steady: median(steady) };
  } finally {
    await service.close();
  }
}

/**
 * Imports 5,000 entries (in the request's slices) while another connection holds a
 * read snapshot, which keeps every checkpoint from going past it; then lets go. The
 * WAL may grow while the reader holds on; after, it must come back within
 * journal_size_limit (the checkpoint thread copies it back, the next write cuts it).
 */
async function walUnderReader(dataDir: string, companyId: string) {
  const dbFile = join(dataDir, 'silodesk.db');
  const walSize = () => (existsSync(`${dbFile}-wal`) ? statSync(`${dbFile}-wal`).size : 0);
  const service = await openService(dataDir, { runJobs: false, autoSync: false });
  const reader = new Database(dbFile, { readonly: true });
  try {
    const ctx = { service, caller: await ownerOfCompany(service.db, companyId) };
    const factory = new EntryFactory(loadEnvelopes(), { seed: 57 });
    const items = (n: number) => Array.from({ length: n }, () => factory.next()).map((e) => ({ id: e.id, data: e.data }));
    await importEntriesSliced(ctx, items(200));
    const start = walSize();
    reader.exec('BEGIN');
    reader.prepare('SELECT count(*) FROM entries WHERE seq < 10').get();
    for (let i = 0; i < 5; i++) await importEntriesSliced(ctx, items(1000));
    const held = walSize();
    reader.exec('COMMIT');
    // The service's own checkpoint thread does the rest (nothing is forced here): a write now and then,
    // until the WAL is back within the limit, or a minute has passed.
    const released = performance.now();
    while (walSize() > JOURNAL_SIZE_LIMIT && performance.now() - released < 60_000) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      await importEntriesSliced(ctx, items(1));
    }
    return { start, held, growthPer1000: (held - start) / 5, after: walSize(), seconds_to_bounded: (performance.now() - released) / 1000 };
  } finally {
    reader.close();
    await service.close();
  }
}
