// `npm run bench -- --before <rev>`: the SQLite benchmarks of an earlier revision and of
// this checkout, measured in one run. The revision is checked out as a git worktree under
// the temp folder (only read: this checkout's node_modules is linked into it, and it is
// removed at the end); each benchmark then runs in a process of its own there and here
// in turn, before, after, before, after…, so both see the same machine at the same
// moment. Rows are matched by their group and name; a row that exists at one revision
// only is left out. Each row shows before, after, their ratio and whether it got slower.
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CACHE_DIR } from './dataset.ts';
import { formatRuns, type BenchOutput, type BenchResult, type Figure, type TextTable } from './report.ts';
import { median, spreadOf } from './stats.ts';

/** The last commit before the async data layer (issue 14). */
export const DEFAULT_BEFORE = '6255eb9';
/** The longest one benchmark may run in its child before it is stopped. */
const SUITE_TIMEOUT_MS = 15 * 60_000;
/** The aim: no row more than this much slower after than before. */
export const SLOWER_AIM = 0.1;

const HERE = fileURLToPath(new URL('../../', import.meta.url));
const RUN_SUITE = fileURLToPath(new URL('./run-suite.ts', import.meta.url));

type Side = 'before' | 'after';

interface Runs {
  /** by row key, the values of each round */
  values: Map<string, number[]>;
  failures: string[];
}

interface RowInfo {
  group: string;
  name: string;
  unit: string;
}

export async function beforeAndAfter(rev: string, names: string[], rounds: number, log: (line: string) => void): Promise<BenchResult> {
  const started = new Date();
  const t0 = performance.now();
  const tree = checkOut(rev, log);
  const stop = () => {
    tree.remove();
    process.exit(130);
  };
  process.once('SIGINT', stop);
  try {
    const present = names.filter((name) => existsSync(join(tree.dir, 'bench', `${name}.ts`)));
    const missing = names.filter((name) => !present.includes(name));
    const runs: Record<Side, Runs> = { before: { values: new Map(), failures: [] }, after: { values: new Map(), failures: [] } };
    const rows = new Map<string, RowInfo & { suite: string }>();
    for (const name of present) {
      for (let round = 0; round < rounds; round++) {
        for (const side of ['before', 'after'] as const) {
          const at = performance.now();
          const out = await runSuite(side === 'before' ? tree.dir : HERE, name);
          const took = `${((performance.now() - at) / 1000).toFixed(1)} s`;
          if ('error' in out) {
            runs[side].failures.push(`${name}, ${side}, round ${round + 1}: ${out.error.split('\n').slice(0, 3).join(' ')}`);
            log(`  ${name} ${side} (${round + 1}/${rounds}): FAILED (${took})`);
            continue;
          }
          log(`  ${name} ${side} (${round + 1}/${rounds}): ${out.figures.length} figures (${took})`);
          for (const [key, f] of keyed(name, out.figures)) {
            if (!runs[side].values.has(key)) runs[side].values.set(key, []);
            runs[side].values.get(key)!.push(f.value);
            if (side === 'after' || !rows.has(key)) rows.set(key, { suite: name, group: `${name}: ${f.group ?? ''}`, name: f.name, unit: f.unit });
          }
        }
      }
    }
    const compared = [...rows].filter(([key]) => runs.before.values.has(key) && runs.after.values.has(key));
    const figures: Figure[] = compared.map(([key, row]) => figureOf(row, runs.before.values.get(key)!, runs.after.values.get(key)!));
    const slower = figures.filter((f) => (f.detail?.slower as number | undefined) !== undefined && (f.detail!.slower as number) > SLOWER_AIM);
    const onlyOne = [...rows].filter(([key]) => !(runs.before.values.has(key) && runs.after.values.has(key))).map(([, row]) => `${row.group} ${row.name.trim()}`);
    return {
      name: 'before-after',
      title: `SQLite before (${rev}) and after (this checkout), alternating, ${rounds} rounds`,
      started_at: started.toISOString(),
      duration_ms: performance.now() - t0,
      figures,
      table: tableOf(compared.map(([, row]) => row), figures),
      notes: [
        `aim: no row more than ${SLOWER_AIM * 100}% slower after than before — ${slower.length === 0 ? 'met by every timed row' : `${slower.length} ${slower.length === 1 ? 'row' : 'rows'} slower by more: ${slower.map((f) => `${f.group} ${f.name.trim()}`).join('; ')}`}`,
        `each benchmark ran in a process of its own, ${rounds} times at each revision, before and after in turn (runs 1 inside each); a figure is the median of its rounds, lowest and highest beside it`,
        'after/before is the ratio of the figures; "slower" reads it by the unit (per second: higher is better; ms, s, µs: lower is better); event-loop and idle-thread rows are maxima, and noisy',
        `rows matched by group and name (a trailing parenthesis and decimals aside); ${onlyOne.length === 0 ? 'every row exists at both revisions' : `left out, as measured at one revision only: ${onlyOne.join('; ')}`}`,
        'no verdict on the yardstick (raw better-sqlite3 beside the service, not the service), the idle thread and the bare upload (the machine’s own share)',
        ...(missing.length ? [`not at ${rev}: ${missing.join(', ')}`] : []),
        ...runs.before.failures.map((f) => `FAILED before: ${f}`),
        ...runs.after.failures.map((f) => `FAILED after: ${f}`),
      ],
      setup: { before: rev, after: 'this checkout (working tree)', rounds, benchmarks: present },
    };
  } finally {
    process.off('SIGINT', stop);
    tree.remove();
  }
}

/** The revision as a worktree under the temp folder, with this checkout's node_modules and 10k dataset cache. */
function checkOut(rev: string, log: (line: string) => void): { dir: string; remove(): void } {
  if (!/^[A-Za-z0-9][A-Za-z0-9._/~^-]*$/.test(rev)) throw new Error(`--before takes a git revision (got ${rev})`);
  const dir = join(mkdtempSync(join(tmpdir(), 'silodesk-before-')), 'tree');
  execFileSync('git', ['worktree', 'add', '--detach', dir, rev], { cwd: HERE, stdio: 'pipe' });
  let removed = false;
  const remove = () => {
    if (removed) return;
    removed = true;
    // the link first, so that nothing removing the tree can reach this checkout's node_modules through it
    try {
      unlinkSync(join(dir, 'node_modules'));
    } catch {
      // never linked
    }
    try {
      execFileSync('git', ['worktree', 'remove', '--force', dir], { cwd: HERE, stdio: 'pipe' });
    } finally {
      rmSync(join(dir, '..'), { recursive: true, force: true });
    }
  };
  try {
    symlinkSync(join(HERE, 'node_modules'), join(dir, 'node_modules'), 'dir');
    // The same 10,000-entry dataset on both sides, when the schema is the same (the cache is keyed by it): copied, never shared.
    if (existsSync(CACHE_DIR)) {
      for (const name of readdirSync(CACHE_DIR).filter((n) => n.startsWith('silo-10k-') && !n.endsWith('.partial'))) {
        cpSync(join(CACHE_DIR, name), join(dir, 'bench', '.cache', name), { recursive: true });
      }
    }
  } catch (err) {
    remove();
    throw err;
  }
  log(`  ${rev} checked out at ${dir}`);
  return { dir, remove };
}

/** One benchmark of a tree, in a child process (run-suite.ts): what it measured, or its error. */
async function runSuite(tree: string, name: string): Promise<BenchOutput | { error: string }> {
  const outDir = mkdtempSync(join(tmpdir(), 'silodesk-bench-suite-'));
  const outFile = join(outDir, 'out.json');
  try {
    const child = spawn(process.execPath, [RUN_SUITE, tree, name, '1', outFile], { cwd: tree, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    // one that hangs is stopped (this child only), and the comparison goes on without it
    const timer = setTimeout(() => child.kill('SIGKILL'), SUITE_TIMEOUT_MS);
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve)).finally(() => clearTimeout(timer));
    if (!existsSync(outFile)) return { error: `exited with ${code ?? 'a signal (over the time limit?)'}: ${output.slice(-1500)}` };
    return JSON.parse(readFileSync(outFile, 'utf8')) as BenchOutput | { error: string };
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}

/**
 * The figures by a key that is the same at both revisions: the benchmark, group and
 * name, without a trailing parenthesis (which names the slowest case, or a count) and
 * with decimals blanked (a size in MiB); a second row of the same key gets a number.
 */
function keyed(suite: string, figures: Figure[]): Array<[string, Figure]> {
  const seen = new Map<string, number>();
  return figures.map((f) => {
    const base = `${suite}\u0000${f.group ?? ''}\u0000${withoutTrailingParenthesis(f.name.trim()).replace(/\d+\.\d+/g, '#')}\u0000${f.unit}`;
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    return [`${base}\u0000${n}`, f];
  });
}

/** "slowest read (related (3+ notes))" → "slowest read": the parenthesis closing the name, with what it nests. */
function withoutTrailingParenthesis(name: string): string {
  if (!name.endsWith(')')) return name;
  let depth = 0;
  for (let i = name.length - 1; i >= 0; i--) {
    if (name[i] === ')') depth++;
    else if (name[i] === '(' && --depth === 0) return name.slice(0, i).trimEnd();
  }
  return name;
}

/**
 * Which way a row is better, or undefined when it is no speed of the service's code:
 * counts and sizes; the idle thread beside an event-loop figure and the yardstick (the
 * machine's own share); the bare upload (node:http alone).
 */
function better(row: RowInfo): 'higher' | 'lower' | undefined {
  if (/idle thread|^\s*yardstick$|^bare HTTP upload/.test(row.name)) return undefined;
  if (row.unit.endsWith('/s')) return 'higher';
  if (['ms', 's', 'µs'].includes(row.unit)) return 'lower';
  return undefined;
}

function figureOf(row: RowInfo, before: number[], after: number[]): Figure {
  const [b, a] = [median(before), median(after)];
  const way = better(row);
  // how much longer the same work takes after than before (negative: faster)
  const slower = way === undefined || !(a > 0 && b > 0) ? undefined : way === 'higher' ? b / a - 1 : a / b - 1;
  return {
    group: row.group,
    name: row.name,
    value: a,
    unit: row.unit,
    spread: spreadOf(after),
    ratio: b === 0 ? undefined : a / b,
    ratioOf: 'before',
    detail: { before: b, before_runs: before, after_runs: after, ...(slower === undefined ? {} : { slower }) },
  };
}

function tableOf(rows: RowInfo[], figures: Figure[]): TextTable {
  return {
    header: ['', 'unit', 'before (runs)', 'after (runs)', 'after/before', 'change', ''],
    right: [false, false, true, true, true, false, false],
    rows: figures.map((f, i) => {
      const slower = f.detail!.slower as number | undefined;
      const change = slower === undefined ? '' : slower >= 0 ? `${(slower * 100).toFixed(0)}% slower` : `${(-slower * 100).toFixed(0)}% faster`;
      return {
        group: f.group,
        cells: [
          rows[i].name,
          f.unit,
          formatRuns(f.detail!.before_runs as number[]),
          formatRuns(f.detail!.after_runs as number[]),
          f.ratio === undefined ? '' : `${f.ratio.toFixed(2)}×`,
          change,
          slower === undefined ? '' : slower > SLOWER_AIM ? '✗' : '✓',
        ],
      };
    }),
  };
}
