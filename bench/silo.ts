// Silo benchmark at the everyday size (10,000 entries): every read the desk makes,
// timed against the same-bytes yardstick; bulk import over HTTP (with reads waiting
// on it), and what one core spends per imported entry beside the raw insert floor of
// the same rows. `--scale 1m` (scale.ts) does the same at a million entries.
import { openService } from '../src-main/core/service.ts';
import { loadEnvelopes } from '../test/fixtures/gobl/load.ts';
import { rmSync } from 'node:fs';
import { coldStartFigures, coldStartNote, coldStarts, SERVE } from './lib/cold-start.ts';
import { dataset, workingCopy } from './lib/dataset.ts';
import { EntryFactory } from './lib/entries.ts';
import { importCostRound, type ImportCost } from './lib/import-cost.ts';
import { httpImport } from './lib/import-http.ts';
import type { Aim, Benchmark, BenchOptions, BenchOutput, Figure } from './lib/report.ts';
import { startServers } from './lib/servers.ts';
import { timeSiloReads } from './lib/silo-cases.ts';
import { median, spreadOf } from './lib/stats.ts';

export const ENTRIES = 10_000;
const IMPORT_BATCH = 1000;

export const IMPORT_AIM: Aim = { op: '>=', value: 10_000, on: 'figure', goal: 'bulk import ≥ 10,000 GOBL entries/s on one core' };
export const FLOOR_AIM: Aim = { op: '>=', value: 0.7, on: 'ratio', goal: 'bulk import ≥ 0.7× the raw insert floor of the same rows' };
export const BLOCK_AIM: Aim = { op: '<=', value: 50, on: 'figure', goal: 'no operation blocks the event loop for more than 50 ms' };

const benchmark: Benchmark = {
  name: 'silo',
  title: `reads against the same-bytes yardstick and bulk import, at ${ENTRIES.toLocaleString('en-US')} entries`,
  run,
};
export default benchmark;

async function run(options: BenchOptions): Promise<BenchOutput> {
  const ds = await dataset(ENTRIES, { rebuild: options.rebuildCache, log: console.log });
  const figures: Figure[] = [];
  const notes: string[] = [];

  const servers = await startServers(ds.dataDir, { yardstick: true, runJobs: false });
  let reads;
  try {
    reads = await timeSiloReads(servers, ds, { runs: options.runs, reps: 150, warmup: 20, budgetMs: 4_000, minReps: 40 }, `reads at ${ENTRIES.toLocaleString('en-US')} entries (ms; median of ${options.runs} runs)`, false);
    figures.push(...reads.figures);
    figures.push({ group: 'reads', name: `slowest read request (${reads.slowest.name})`, value: reads.slowest.ms, unit: 'ms' });
    figures.push(
      { group: 'reads', name: `longest event-loop block while reading (${reads.longestBlock.name})`, value: reads.longestBlock.ms, unit: 'ms', aim: BLOCK_AIM },
      { group: 'reads', name: '  an idle thread meanwhile (the machine’s own share)', value: reads.longestBlock.control, unit: 'ms' },
        { group: 'reads', name: `  the longest GC pause of the server thread meanwhile (${reads.longestBlock.gc.kind || 'none'})`, value: reads.longestBlock.gc.ms, unit: 'ms' },
    );
    notes.push(...reads.notes);
  } finally {
    await servers.close();
  }

  const copy = workingCopy(ds);
  let importFigures;
  try {
    // `serve` on a copy of the dataset: what a start costs besides opening the database.
    const cold = await coldStarts(copy, options.runs, undefined, 0);
    figures.push(...coldStartFigures(`serve at ${ENTRIES.toLocaleString('en-US')} entries`, cold).map((f) => ({ ...f, aim: undefined })));
    importFigures = await importSection(copy, ds.companyId, options.runs, `at ${ENTRIES.toLocaleString('en-US')} entries`);
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
  figures.push(...importFigures.figures);
  notes.push(...importFigures.notes);

  notes.push(
    coldStartNote(SERVE),
    'yardstick: node:http over raw better-sqlite3 doing the same work (Host check, token look-up, the same SQL with attachments and meta, the same cursor HMAC, byte-identical JSON); each request goes to both in turn on one keep-alive client',
    `dataset: ${ds.entries.toLocaleString('en-US')} entries from the GOBL fixtures (unique codes; hubs of 3–5 credit notes), ${ds.cached ? `cached (built ${ds.built_at})` : `built in ${ds.build_seconds.toFixed(0)} s`}`,
  );
  return { figures, notes, setup: { entries: ENTRIES, runs: options.runs, schema: ds.schema } };
}

/**
 * Import over HTTP on a fresh data dir, and the per-entry cost in-process on a
 * working copy of a dataset at `dataDir` (CPU time; import-cost.ts). Shared with scale.ts.
 */
export async function importSection(dataDir: string, companyId: string, runs: number, label: string, withHttp = true): Promise<{ figures: Figure[]; notes: string[]; costPerEntryUs: number }> {
  const figures: Figure[] = [];
  const notes: string[] = [];
  if (withHttp) {
    const http = await httpImport(runs, 2, IMPORT_BATCH);
    figures.push(
      {
        group: 'import over HTTP (fresh data dir)',
        name: `POST /silo/v1/import, ${IMPORT_BATCH} entries a request`,
        value: median(http.rates),
        unit: 'entries/s',
        spread: spreadOf(http.rates),
        aim: IMPORT_AIM,
        detail: { per_server_busy_second: http.busyRates },
      },
      { group: 'import over HTTP (fresh data dir)', name: '  per second the server thread was busy', value: median(http.busyRates), unit: 'entries/s', spread: spreadOf(http.busyRates) },
      {
        group: 'import over HTTP (fresh data dir)',
        name: `slowest list page read during the imports (${http.reads} reads)`,
        value: http.slowestRead,
        unit: 'ms',
        aim: { op: '<=', value: 50, on: 'figure', goal: 'long work yields: no request waits more than 50 ms' },
      },
      { group: 'import over HTTP (fresh data dir)', name: 'longest event-loop block during the imports', value: http.longestBlock, unit: 'ms', aim: BLOCK_AIM },
      { group: 'import over HTTP (fresh data dir)', name: '  an idle thread meanwhile (the machine’s own share)', value: http.controlBlock, unit: 'ms' },
      {
        group: 'import over HTTP (fresh data dir)',
        name: '429 answers to the owner’s own tool',
        value: http.throttled,
        unit: 'answers',
        aim: { op: '<=', value: 0, on: 'figure', goal: 'rate limits never throttle the owner’s own local tools' },
      },
    );
  }

  const service = await openService(dataDir, { runJobs: false, autoSync: false });
  const rounds: ImportCost[] = [];
  try {
    const factory = new EntryFactory(loadEnvelopes(), { seed: 7 });
    await importCostRound(service, companyId, Array.from({ length: 200 }, () => factory.next())); // warm-up
    for (let i = 0; i < runs; i++) rounds.push(await importCostRound(service, companyId, Array.from({ length: IMPORT_BATCH }, () => factory.next())));
  } finally {
    await service.close();
  }
  const perSecond = (ms: number, n = IMPORT_BATCH) => n / (ms / 1000);
  const importRates = rounds.map((r) => perSecond(r.goblMs + r.writeMs));
  const floorRates = rounds.map((r) => perSecond(r.floorMs));
  const writeRates = rounds.map((r) => perSecond(r.writeMs));
  const goblShare = rounds.map((r) => r.goblMs / (r.goblMs + r.writeMs));
  const group = `import on one core, ${label} (${IMPORT_BATCH} a batch; per CPU-second)`;
  figures.push(
    {
      group,
      name: 'bulk import (GOBL check + derived rows + write)',
      value: median(importRates),
      unit: 'entries/s',
      spread: spreadOf(importRates),
      ratio: median(importRates) / median(floorRates),
      ratioOf: 'raw insert floor',
      aim: IMPORT_AIM,
    },
    { group, name: '  against the raw insert floor', value: median(importRates), unit: 'entries/s', ratio: median(importRates) / median(floorRates), ratioOf: 'floor', aim: FLOOR_AIM },
    { group, name: '  GOBL (check, derive) per entry', value: median(rounds.map((r) => (r.goblMs * 1000) / r.entries)), unit: 'µs', detail: { share: median(goblShare) } },
    { group, name: '  write per entry (row, derived rows, change log)', value: median(rounds.map((r) => (r.writeMs * 1000) / r.entries)), unit: 'µs' },
    { group, name: '  the write alone', value: median(writeRates), unit: 'entries/s', ratio: median(writeRates) / median(floorRates), ratioOf: 'floor' },
    { group, name: 'raw insert floor: the same rows, prepared statements', value: median(floorRates), unit: 'entries/s', spread: spreadOf(floorRates) },
  );
  notes.push(
    `${label}: GOBL's share of an imported entry's time is ${Math.round(median(goblShare) * 100)}% (the engine is being made faster separately); the write takes ${median(rounds.map((r) => (r.writeMs * 1000) / r.entries)).toFixed(0)} µs of it`,
  );
  const costPerEntryUs = median(rounds.map((r) => ((r.goblMs + r.writeMs) * 1000) / r.entries));
  return { figures, notes, costPerEntryUs };
}
