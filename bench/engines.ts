// Engines benchmark (issue 14): the served instance on PostgreSQL beside the same on
// SQLite — the same requests over the same HTTP, on the same machine, the engines taking
// turns run by run (which goes first alternates). PostgreSQL is a throwaway cluster
// (scripts/pg-cluster.ts, fsync off), with a fresh database for every instance.
// Measured: the first list page at 10,000 entries, bulk import over HTTP, series entries
// issued over HTTP (1 and 8 clients) and the first sync push of 10,000 entries from a
// desktop instance (SQLite) to the served one. A cell that fails on PostgreSQL (or
// SQLite) is printed as FAILED with its reason, and the rest of the table is measured.
import { rmSync } from 'node:fs';
import { dataset, workingCopy } from './lib/dataset.ts';
import { EngineCells, type EngineRow } from './lib/engine-table.ts';
import { bulkImport, entryCount, fill, issueSeries, newSeries, readListPage, syncPush } from './lib/engine-work.ts';
import { ENGINES, freshInstance, startPgServer, type Engine, type Instance, type PgServer } from './lib/instance.ts';
import type { Benchmark, BenchOptions, BenchOutput } from './lib/report.ts';
import type { Servers } from './lib/servers.ts';
import type { Summary } from './lib/stats.ts';

const LIST_READS = 150;
const IMPORT_BATCHES = 2;
const SERIES_ENTRIES = 1_000;
const SYNC_ENTRIES = 10_000;

const n = (x: number) => x.toLocaleString('en-US');
const ROWS: EngineRow[] = [
  { key: 'list', group: `reads at ${n(SYNC_ENTRIES)} entries (the instance a push filled)`, name: `list page (20), median of ${LIST_READS} reads`, unit: 'ms', better: 'lower' },
  { key: 'list-p99', group: `reads at ${n(SYNC_ENTRIES)} entries (the instance a push filled)`, name: '  p99', unit: 'ms', better: 'lower' },
  { key: 'import', group: 'writes over HTTP (fresh instance each run)', name: `bulk import, POST /silo/v1/import, ${IMPORT_BATCHES} × 1,000 entries`, unit: 'entries/s', better: 'higher' },
  { key: 'series-1', group: 'writes over HTTP (fresh instance each run)', name: `series entries, PUT, 1 client (${n(SERIES_ENTRIES)})`, unit: 'entries/s', better: 'higher' },
  { key: 'series-8', group: 'writes over HTTP (fresh instance each run)', name: `series entries, PUT, 8 clients (${n(SERIES_ENTRIES)})`, unit: 'entries/s', better: 'higher' },
  { key: 'sync', group: 'sync to the served instance (fresh instance each run)', name: `first push of ${n(SYNC_ENTRIES)} entries from a desktop (SQLite)`, unit: 's', better: 'lower' },
];

const benchmark: Benchmark = {
  name: 'engines',
  title: 'the served instance on PostgreSQL beside SQLite: the same work over the same HTTP',
  beforeAfter: false,
  run,
};
export default benchmark;

async function run(options: BenchOptions): Promise<BenchOutput> {
  const cells = new EngineCells(ROWS, console.log);
  const notes: string[] = [];
  const pg = await startPgServer();
  try {
    for (let r = 0; r < options.runs; r++) {
      for (const engine of EngineCells.order(r)) {
        await cells.attempt(['import'], engine, r, () =>
          withServed(engine, pg, async (instance, servers) => [await bulkImport(servers.apiUrl, instance.token, IMPORT_BATCHES, 99 + r)]),
        );
      }
    }
    for (let r = 0; r < options.runs; r++) {
      for (const engine of EngineCells.order(r)) {
        await cells.attempt(['series-1', 'series-8'], engine, r, async () => {
          const instance = await freshInstance(engine, pg);
          try {
            const [one, eight] = [await newSeries(instance, 'ONE'), await newSeries(instance, 'EIG')];
            const servers = await instance.serve();
            try {
              return [await issueSeries(servers.apiUrl, instance.token, one, SERIES_ENTRIES, 1), await issueSeries(servers.apiUrl, instance.token, eight, SERIES_ENTRIES, 8)];
            } finally {
              await servers.close();
            }
          } finally {
            await instance.remove();
          }
        });
      }
    }
    const unsynced = await syncPushes(cells, pg, options);
    // Where the push failed, the list page is still measured: on an instance filled by import.
    if (unsynced.length > 0) await listPagesOnImported(cells, pg, unsynced, options.runs, notes);
  } finally {
    pg.stop();
  }
  const failures = cells.failures();
  return {
    figures: cells.figures(),
    table: cells.table(),
    notes: [
      ...failures,
      ...notes,
      ...(pg.unavailable ? [`PostgreSQL could not be measured here: ${pg.unavailable}`] : []),
      'each figure is the median of the runs, their lowest and highest beside it; the engines take turns run by run, which goes first alternating',
      'PostgreSQL: a throwaway local cluster (fsync off, synchronous_commit off), a fresh database for every instance; SQLite: the data dir’s file, as `serve` runs it',
      `sync: the desktop side is a copy of the ${n(SYNC_ENTRIES)}-entry dataset (bench/.cache); the list page is read on the remote each push filled, still served, and the remote is then checked to hold every entry`,
      'every series issued is verified over HTTP afterwards (gapless, chain valid); every import must store all it was sent',
    ],
    setup: { list_entries: SYNC_ENTRIES, list_reads: LIST_READS, import_batches: IMPORT_BATCHES, series_entries: SERIES_ENTRIES, sync_entries: SYNC_ENTRIES, runs: options.runs, failures },
  };
}

/** A fresh instance on the engine, served while `work` runs, then removed. */
async function withServed<T>(engine: Engine, pg: PgServer, work: (instance: Instance, servers: Servers) => Promise<T>): Promise<T> {
  const instance = await freshInstance(engine, pg);
  try {
    const servers = await instance.serve();
    try {
      return await work(instance, servers);
    } finally {
      await servers.close();
    }
  } finally {
    await instance.remove();
  }
}

/**
 * Per run and engine, the first push from a copy of the cached desktop dataset to a fresh
 * served instance (its job runner on, as `serve` runs); then, the remote holding those
 * entries and still served, its list page is read. The remote is checked to hold every
 * entry before either figure counts. Answers the engines whose push failed.
 */
async function syncPushes(cells: EngineCells, pg: PgServer, options: BenchOptions): Promise<Engine[]> {
  let ds: Awaited<ReturnType<typeof dataset>>;
  try {
    ds = await dataset(SYNC_ENTRIES, { rebuild: options.rebuildCache, log: console.log });
  } catch (err) {
    for (const engine of ENGINES) cells.fail(['sync'], engine, 0, err);
    return [...ENGINES];
  }
  const unsynced = new Set<Engine>();
  for (let r = 0; r < options.runs; r++) {
    for (const engine of EngineCells.order(r)) {
      let reads: Summary | Error | undefined;
      await cells.attempt(['sync'], engine, r, async () => {
        const local = workingCopy(ds);
        const remote = await freshInstance(engine, pg).catch((err: unknown) => {
          rmSync(local, { recursive: true, force: true });
          throw err;
        });
        try {
          const servers = await remote.serve({ runJobs: true });
          let seconds: number;
          try {
            seconds = (await syncPush(local, servers.apiUrl, remote.token, ds.entries)).seconds;
            reads = await readListPage(servers.apiUrl, remote.token, LIST_READS).catch((err: unknown) => (err instanceof Error ? err : new Error(String(err))));
          } finally {
            await servers.close();
          }
          const held = await entryCount(remote);
          if (held !== ds.entries) throw new Error(`the remote holds ${held} entries after the push, not ${ds.entries}`);
          return [seconds];
        } finally {
          await remote.remove();
          rmSync(local, { recursive: true, force: true });
        }
      });
      if (cells.failed('sync', engine)) {
        unsynced.add(engine);
      } else if (reads instanceof Error) {
        cells.fail(['list', 'list-p99'], engine, r, reads);
      } else if (reads) {
        cells.record(['list', 'list-p99'], engine, r, [reads.median, reads.p99]);
      }
    }
  }
  return [...unsynced];
}

/** The list page on an engine whose push failed: an instance filled with the same number of entries by import. */
async function listPagesOnImported(cells: EngineCells, pg: PgServer, engines: Engine[], runs: number, notes: string[]): Promise<void> {
  for (const engine of engines) {
    let served: { instance: Instance; servers: Servers } | undefined;
    try {
      const instance = await freshInstance(engine, pg);
      try {
        await fill(instance, SYNC_ENTRIES, 7);
        served = { instance, servers: await instance.serve() };
      } catch (err) {
        await instance.remove();
        throw err;
      }
    } catch (err) {
      cells.fail(['list', 'list-p99'], engine, 0, err);
      continue;
    }
    try {
      for (let r = 0; r < runs; r++) {
        await cells.attempt(['list', 'list-p99'], engine, r, async () => {
          const reads = await readListPage(served.servers.apiUrl, served.instance.token, LIST_READS);
          return [reads.median, reads.p99];
        });
      }
    } finally {
      await served.servers.close();
      await served.instance.remove();
    }
    notes.push(`list page on ${engine}: its push failed, so it was read on an instance filled with ${n(SYNC_ENTRIES)} entries by import instead`);
  }
}
