// What a benchmark hands back, and how the runner prints it.
//
// A benchmark reports figures; a figure may carry a ratio against a baseline
// measured in the same run (machines differ, ratios travel), the spread of its
// repeated runs, and an aim: one of the goals of the issue it came from, checked
// as ✓ or ✗. Aims inform: a missed aim is printed, never a failure.

import { median, spreadOf } from './stats.ts';

export interface Aim {
  /** `>=` means bigger is better */
  op: '>=' | '<=';
  value: number;
  /** compare the figure itself, its ratio, or its p99 (for latencies) */
  on: 'figure' | 'ratio' | 'p99' | 'p99-ratio';
  /** the goal in words, as the issue says it */
  goal?: string;
}

export interface Figure {
  /** rows with the same group are printed under one heading */
  group?: string;
  name: string;
  value: number;
  unit: string;
  /** 99th percentile, for timed figures (same unit as value) */
  p99?: number;
  /** p99 over the baseline's p99 */
  p99Ratio?: number;
  /** lowest and highest of the repeated runs the figure is the median of */
  spread?: [number, number];
  ratio?: number;
  /** what the ratio is taken against, e.g. "yardstick" */
  ratioOf?: string;
  aim?: Aim;
  /** set by the runner from aim */
  met?: boolean;
  /** anything else worth keeping in results.json */
  detail?: Record<string, unknown>;
}

export interface BenchOptions {
  /** `--scale 1m`: the million-entry database (built once, cached under bench/.cache) */
  scale: 'default' | '1m';
  /** `--runs N`: how many times each figure is measured (its median and spread are reported) */
  runs: number;
  /** `--rebuild-cache`: build cached databases again */
  rebuildCache: boolean;
}

/** A table of the benchmark's own columns (engines side by side, before and after), printed instead of the figure rows. */
export interface TextTable {
  header: string[];
  /** which columns are right-aligned (figures) */
  right: boolean[];
  rows: Array<{ group?: string; cells: string[] }>;
}

export interface BenchOutput {
  figures: Figure[];
  /** printed instead of the figures' standard table (the figures still go to results.json) */
  table?: TextTable;
  /** printed under the table */
  notes: string[];
  /** the setup the figures were measured on (entry counts, repetitions...) */
  setup?: Record<string, unknown>;
}

export interface Benchmark {
  name: string;
  title: string;
  /** run only with `--scale 1m` (or only without) */
  scale?: BenchOptions['scale'];
  /** false: not one of the SQLite benchmarks that `--before` compares across revisions */
  beforeAfter?: false;
  run(options: BenchOptions): Promise<BenchOutput>;
}

export interface BenchResult extends BenchOutput {
  name: string;
  title: string;
  started_at: string;
  duration_ms: number;
  error?: string;
}

export function aimMet(f: Figure): boolean | undefined {
  if (!f.aim) return undefined;
  const x = { figure: f.value, ratio: f.ratio, p99: f.p99, 'p99-ratio': f.p99Ratio }[f.aim.on];
  if (x === undefined || !Number.isFinite(x)) return false;
  return f.aim.op === '>=' ? x >= f.aim.value : x <= f.aim.value;
}

/** Repeated runs as a table cell: their median, and the lowest and highest beside it when there are several. */
export function formatRuns(values: readonly number[]): string {
  const [lo, hi] = spreadOf(values);
  return formatNumber(median(values)) + (values.length > 1 ? ` (${formatNumber(lo)}–${formatNumber(hi)})` : '');
}

/** 12,345 · 123.4 · 12.3 · 1.23 · 0.123 · 0.0123 */
export function formatNumber(x: number): string {
  if (!Number.isFinite(x)) return String(x);
  const a = Math.abs(x);
  if (a >= 1000) return Math.round(x).toLocaleString('en-US');
  if (a >= 100) return x.toFixed(0);
  if (a >= 10) return x.toFixed(1);
  if (a >= 1) return x.toFixed(2);
  if (a >= 0.1) return x.toFixed(3);
  if (a === 0) return '0';
  return x.toPrecision(2);
}

function aimText(f: Figure): string {
  if (!f.aim) return '';
  const op = f.aim.op === '>=' ? '≥' : '≤';
  const value = Number.isInteger(f.aim.value) ? f.aim.value.toLocaleString('en-US') : formatNumber(f.aim.value);
  switch (f.aim.on) {
    case 'ratio':
      return `${op} ${value}×`;
    case 'p99-ratio':
      return `p99 ${op} ${value}×`;
    case 'p99':
      return `p99 ${op} ${value} ${f.unit}`;
    default:
      return `${op} ${value} ${f.unit}`;
  }
}

function ratioText(f: Figure): string {
  if (f.ratio === undefined) return '';
  const p99 = f.p99Ratio !== undefined ? ` (p99 ${f.p99Ratio.toFixed(2)}×)` : '';
  return `${f.ratio.toFixed(2)}×${f.ratioOf ? ` ${f.ratioOf}` : ''}${p99}`;
}

const spreadText = (f: Figure) => (f.spread ? `${formatNumber(f.spread[0])}–${formatNumber(f.spread[1])}` : '');

/** A plain-text table: name, figure, unit, spread, p99, ratio, aim, ✓/✗ (or the benchmark's own columns). */
export function formatTable(result: BenchResult): string {
  const table: TextTable = result.table ?? {
    header: ['name', 'figure', 'unit', 'runs', 'p99', 'ratio', 'aim', ''],
    right: [false, true, false, true, true, false, false, false],
    rows: result.figures.map((f) => ({
      group: f.group,
      cells: [
        f.name,
        formatNumber(f.value),
        f.unit,
        spreadText(f),
        f.p99 !== undefined ? formatNumber(f.p99) : '',
        ratioText(f),
        aimText(f),
        f.met === undefined ? '' : f.met ? '✓' : '✗',
      ],
    })),
  };
  const { header, right, rows } = table;
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r.cells[i] ?? '').length)));
  const line = (cells: string[]) =>
    header
      .map((_, i) => (right[i] ? (cells[i] ?? '').padStart(widths[i]) : (cells[i] ?? '').padEnd(widths[i])))
      .join('  ')
      .trimEnd();
  const total = widths.reduce((a, b) => a + b, 0) + 2 * (widths.length - 1);

  const out: string[] = [];
  out.push(`${result.name} — ${result.title}  (${(result.duration_ms / 1000).toFixed(1)} s)`);
  out.push('═'.repeat(total));
  out.push(line(header));
  let group: string | undefined;
  for (const row of rows) {
    if (row.group !== group) {
      group = row.group;
      out.push(`── ${group ?? ''} `.padEnd(total, '─'));
    }
    out.push(line(row.cells));
  }
  out.push('─'.repeat(total));
  if (result.error) out.push(`ERROR: ${result.error}`);
  for (const note of result.notes) out.push(`• ${note}`);
  return out.join('\n');
}
