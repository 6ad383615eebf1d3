// What a benchmark hands back, and how the runner prints it.
//
// A benchmark reports figures; a figure may carry a ratio against a baseline
// measured in the same run (machines differ, ratios travel) and an aim from the
// issue it came from. Aims inform: a missed aim is printed, never a failure.

export interface Aim {
  /** `>=` means bigger is better */
  op: '>=' | '<=';
  value: number;
  /** compare the figure itself, or its ratio */
  on: 'figure' | 'ratio';
}

export interface Figure {
  /** rows with the same group are printed under one heading */
  group?: string;
  name: string;
  value: number;
  unit: string;
  /** 95th percentile, for timed figures (same unit as value) */
  p95?: number;
  ratio?: number;
  /** what the ratio is taken against, e.g. "raw+bare" */
  ratioOf?: string;
  aim?: Aim;
  /** set by the runner from aim */
  met?: boolean;
  /** anything else worth keeping in results.json */
  detail?: Record<string, unknown>;
}

export interface BenchOutput {
  figures: Figure[];
  /** printed under the table */
  notes: string[];
  /** the setup the figures were measured on (entry counts, repetitions...) */
  setup?: Record<string, unknown>;
}

export interface Benchmark {
  name: string;
  title: string;
  run(): Promise<BenchOutput>;
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
  const x = f.aim.on === 'ratio' ? f.ratio : f.value;
  if (x === undefined || !Number.isFinite(x)) return false;
  return f.aim.op === '>=' ? x >= f.aim.value : x <= f.aim.value;
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
  const unit = f.aim.on === 'ratio' ? '×' : f.unit === 'entries/s' ? '/s' : ` ${f.unit}`;
  const value = Number.isInteger(f.aim.value) ? f.aim.value.toLocaleString('en-US') : formatNumber(f.aim.value);
  return `aim ${op} ${value}${unit}`;
}

function ratioText(f: Figure): string {
  if (f.ratio === undefined) return '';
  return `${f.ratio.toFixed(2)}×${f.ratioOf ? ` ${f.ratioOf}` : ''}`;
}

/** A plain-text table: name, figure, unit, p95, ratio, aim, met. */
export function formatTable(result: BenchResult): string {
  const header = ['name', 'figure', 'unit', 'p95', 'ratio', 'aim', ''];
  const right = [false, true, false, true, false, false, false];
  type Row = { group?: string; cells: string[] };
  const rows: Row[] = result.figures.map((f) => ({
    group: f.group,
    cells: [
      f.name,
      formatNumber(f.value),
      f.unit,
      f.p95 !== undefined ? formatNumber(f.p95) : '',
      ratioText(f),
      aimText(f),
      f.met === undefined ? '' : f.met ? '✓ met' : '✗ not met',
    ],
  }));
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r.cells[i].length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (right[i] ? c.padStart(widths[i]) : c.padEnd(widths[i])))
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
