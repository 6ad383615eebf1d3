// One benchmark of one source tree, in a process of its own, for the before/after
// comparison (before-after.ts): the tree's own bench/<name>.ts is loaded and run, and
// what it measured is written as JSON to the given file. Its own modules and data
// layer are the tree's; nothing of this checkout's service is loaded here.
//
//   node bench/lib/run-suite.ts <tree> <benchmark> <runs> <out.json>
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Benchmark, BenchOutput } from './report.ts';

const [tree, name, runs, out] = process.argv.slice(2);
if (!tree || !/^[a-z0-9-]+$/.test(name ?? '') || !Number.isInteger(Number(runs)) || !out) {
  throw new Error('usage: node bench/lib/run-suite.ts <tree> <benchmark> <runs> <out.json>');
}

let result: BenchOutput | { error: string };
try {
  const bench = ((await import(pathToFileURL(join(tree, 'bench', `${name}.ts`)).href)) as { default: Benchmark }).default;
  result = await bench.run({ scale: 'default', runs: Number(runs), rebuildCache: false });
} catch (err) {
  result = { error: (err as Error)?.stack ?? String(err) };
}
writeFileSync(out, JSON.stringify(result));
// A benchmark that left a timer or socket behind must not hold the comparison up.
process.exit('error' in result ? 1 : 0);
