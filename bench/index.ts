// `npm run bench`: runs every benchmark in order, prints a table for each and
// writes all results to bench/results.json. Each aim is one of the goals of issue 13
// (✓ met, ✗ not); benchmarks inform, they don't gate: a missed aim or a failed
// benchmark is reported, and the process still exits 0. No timing is asserted in
// `npm test`.
//
//   npm run bench                        every benchmark at the everyday size
//   npm run bench -- silo sequence       only the named ones
//   npm run bench -- engines             the served instance on PostgreSQL beside SQLite (issue 14)
//   npm run bench -- --scale 1m          the million-entry database (built once into bench/.cache/)
//   npm run bench -- --runs 5            each figure the median of 5 runs (default 3)
//   npm run bench -- --rebuild-cache     build the cached databases again
//   npm run bench -- --before [rev]      the SQLite benchmarks at rev (default 6255eb9, before the async
//                                        data layer) and here, alternately, each row before/after/ratio
//   npm run bench -- --before silo sync  the same, of the named ones
//
// A new benchmark is one more line in BENCHMARKS.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, totalmem } from 'node:os';
import { parseArgs } from 'node:util';
import { beforeAndAfter, DEFAULT_BEFORE } from './lib/before-after.ts';
import { aimMet, formatTable, type Benchmark, type BenchOptions, type BenchResult } from './lib/report.ts';

const BENCHMARKS: Array<() => Promise<{ default: Benchmark }>> = [
  () => import('./silo.ts'),
  () => import('./scale.ts'),
  () => import('./gobl.ts'),
  () => import('./sequence.ts'),
  () => import('./transform.ts'),
  () => import('./sync.ts'),
  () => import('./uploads.ts'),
  () => import('./large-documents.ts'),
  () => import('./engines.ts'),
];

const RESULTS_FILE = new URL('./results.json', import.meta.url);

const isBenchmarkName = (word: string) => /^[a-z0-9-]+$/.test(word) && word !== 'index' && existsSync(new URL(`./${word}.ts`, import.meta.url));

function optionsOf(argv: string[]): { options: BenchOptions; only: string[]; before?: string } {
  // `--before` takes a revision, or none (the default): a benchmark's name after it is not one.
  const args = argv.flatMap((arg, i) =>
    arg === '--before' && (i + 1 >= argv.length || argv[i + 1].startsWith('-') || isBenchmarkName(argv[i + 1])) ? [`--before=${DEFAULT_BEFORE}`] : [arg],
  );
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      scale: { type: 'string', default: 'default' },
      runs: { type: 'string', default: '3' },
      'rebuild-cache': { type: 'boolean', default: false },
      before: { type: 'string' },
    },
  });
  const scale = values.scale === '1m' ? '1m' : values.scale === 'default' ? 'default' : undefined;
  if (!scale) throw new Error(`--scale takes 1m (got ${values.scale})`);
  const runs = Number(values.runs);
  if (!Number.isInteger(runs) || runs < 1 || runs > 50) throw new Error(`--runs takes 1 to 50 (got ${values.runs})`);
  return { options: { scale, runs, rebuildCache: values['rebuild-cache']! }, only: positionals, before: values.before };
}

async function main(): Promise<void> {
  const { options, only, before } = optionsOf(process.argv.slice(2));
  const results: BenchResult[] = [];
  const started = new Date();
  const cpuModel = cpus()[0]?.model?.trim() ?? 'unknown';
  console.log(
    `Silodesk benchmarks — node ${process.version}, ${availableParallelism()} CPUs (${cpuModel}), ${process.platform}/${process.arch}; ` +
      `scale ${options.scale}, ${options.runs} runs\n`,
  );

  if (before !== undefined) {
    results.push(await compareWithBefore(before, only, options));
  }

  for (const load of before !== undefined ? [] : BENCHMARKS) {
    const bench = (await load()).default;
    if (only.length > 0 ? !only.includes(bench.name) : bench.scale !== undefined && bench.scale !== options.scale) continue;
    console.log(`running ${bench.name}…`);
    const t0 = performance.now();
    const at = new Date().toISOString();
    let result: BenchResult;
    try {
      const out = await bench.run(options);
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
  console.log(`aims: ${aims.length - missed.length} of ${aims.length} met ✓`);
  for (const f of missed) console.log(`  ✗ ${f.group ? `${f.group}: ` : ''}${f.name.trim()}${f.aim?.goal ? ` — ${f.aim.goal}` : ''}`);
  if (failed.length) console.log(`failed benchmarks: ${failed.map((r) => r.name).join(', ')}`);

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
        options,
        duration_ms: Date.now() - started.getTime(),
        benchmarks: mergedWithEarlier(results),
      },
      null,
      2,
    )}\n`,
  );
  console.log(`results written to bench/results.json`);
}

/**
 * `--before rev`: the SQLite benchmarks (the named ones, or all of the everyday size) at rev
 * and here, `runs` rounds each (before-after.ts); one result, printed as its own table.
 */
async function compareWithBefore(rev: string, only: string[], options: BenchOptions): Promise<BenchResult> {
  const names: string[] = [];
  for (const load of BENCHMARKS) {
    const bench = (await load()).default;
    if (only.length > 0 ? only.includes(bench.name) : bench.scale === undefined && bench.beforeAfter !== false) names.push(bench.name);
  }
  console.log(`running ${names.join(', ')} at ${rev} and here, alternately…`);
  let result: BenchResult;
  try {
    result = await beforeAndAfter(rev, names, options.runs, console.log);
  } catch (err) {
    result = { name: 'before-after', title: `SQLite before (${rev}) and after`, started_at: new Date().toISOString(), duration_ms: 0, figures: [], notes: [], error: (err as Error)?.stack ?? String(err) };
  }
  console.log(`\n${formatTable(result)}\n`);
  return result;
}

/** A run of some benchmarks (`npm run bench -- silo`) keeps the others' last figures. */
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
