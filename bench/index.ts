// `npm run bench`: runs every benchmark in order, prints a table for each and
// writes all results to bench/results.json. Benchmarks inform, they don't gate:
// a missed aim or a failed benchmark is reported, and the process still exits 0.
//
//   node bench/index.ts            all benchmarks
//   node bench/index.ts silo       only the named ones
//
// A new benchmark is one more line in BENCHMARKS.
import { readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, totalmem } from 'node:os';
import { aimMet, formatTable, type Benchmark, type BenchResult } from './lib/report.ts';

const BENCHMARKS: Array<() => Promise<{ default: Benchmark }>> = [
  () => import('./silo.ts'),
  () => import('./gobl.ts'),
  () => import('./sequence.ts'),
  () => import('./transform.ts'),
  () => import('./sync.ts'),
];

const RESULTS_FILE = new URL('./results.json', import.meta.url);

async function main(): Promise<void> {
  const only = process.argv.slice(2).filter((a) => !a.startsWith('-'));
  const results: BenchResult[] = [];
  const started = new Date();
  const cpuModel = cpus()[0]?.model?.trim() ?? 'unknown';
  console.log(`Silodesk benchmarks — node ${process.version}, ${availableParallelism()} CPUs (${cpuModel}), ${process.platform}/${process.arch}\n`);

  for (const load of BENCHMARKS) {
    const bench = (await load()).default;
    if (only.length > 0 && !only.includes(bench.name)) continue;
    console.log(`running ${bench.name}…`);
    const t0 = performance.now();
    const at = new Date().toISOString();
    let result: BenchResult;
    try {
      const out = await bench.run();
      for (const f of out.figures) f.met = aimMet(f);
      result = { name: bench.name, title: bench.title, started_at: at, duration_ms: performance.now() - t0, ...out };
    } catch (err) {
      result = {
        name: bench.name,
        title: bench.title,
        started_at: at,
        duration_ms: performance.now() - t0,
        figures: [],
        notes: [],
        error: (err as Error)?.stack ?? String(err),
      };
    }
    results.push(result);
    console.log(`\n${formatTable(result)}\n`);
  }

  const aims = results.flatMap((r) => r.figures.filter((f) => f.met !== undefined));
  const missed = aims.filter((f) => !f.met);
  const failed = results.filter((r) => r.error);
  console.log(
    `aims met: ${aims.length - missed.length}/${aims.length}` +
      (missed.length ? ` (not met: ${missed.map((f) => f.name).join('; ')})` : '') +
      (failed.length ? ` — failed benchmarks: ${failed.map((r) => r.name).join(', ')}` : ''),
  );

  writeFileSync(
    RESULTS_FILE,
    `${JSON.stringify(
      {
        date: started.toISOString(),
        node: process.version,
        platform: `${process.platform}/${process.arch}`,
        cpus: availableParallelism(),
        cpu_model: cpuModel,
        total_memory_mb: Math.round(totalmem() / 1024 / 1024),
        duration_ms: Date.now() - started.getTime(),
        benchmarks: mergedWithEarlier(results),
      },
      null,
      2,
    )}\n`,
  );
  console.log(`results written to bench/results.json`);
}

/** A run of some benchmarks (`node bench/index.ts silo`) keeps the others' last figures. */
function mergedWithEarlier(results: BenchResult[]): BenchResult[] {
  let earlier: BenchResult[] = [];
  try {
    earlier = JSON.parse(readFileSync(RESULTS_FILE, 'utf8')).benchmarks ?? [];
  } catch {
    earlier = [];
  }
  const fresh = new Set(results.map((r) => r.name));
  return [...earlier.filter((r) => !fresh.has(r.name)), ...results];
}

await main();
