// The cells of a side-by-side comparison of the two engines: each row's runs on SQLite
// and on PostgreSQL, or why a cell could not be measured. A cell that fails keeps its
// error (printed in the cell and in the notes) and is not tried again in later runs;
// the rest of the table is still measured.
import { formatNumber, formatRuns, type Figure, type TextTable } from './report.ts';
import { ENGINES, firstLine, type Engine } from './instance.ts';
import { median, spreadOf } from './stats.ts';

export interface EngineRow {
  key: string;
  group: string;
  name: string;
  unit: string;
  /** which way is better: entries/s higher, ms lower */
  better: 'higher' | 'lower';
}

interface Cell {
  values: number[];
  /** the first failure, and on which run it came */
  error?: { run: number; message: string };
}

const LABEL: Record<Engine, string> = { sqlite: 'SQLite', postgres: 'PostgreSQL' };
/** The longest one run of a row may take (a first push of 10,000 entries on a slow path included). */
const ATTEMPT_TIMEOUT_MS = 10 * 60_000;

export class EngineCells {
  private readonly cells = new Map<string, Cell>();
  private readonly rows: EngineRow[];
  /** progress, one line a measured run (the runner prints the table at the end) */
  private readonly log: (line: string) => void;

  constructor(rows: EngineRow[], log: (line: string) => void = () => undefined) {
    this.rows = rows;
    this.log = log;
  }

  private cell(key: string, engine: Engine): Cell {
    const id = `${key}/${engine}`;
    let c = this.cells.get(id);
    if (!c) this.cells.set(id, (c = { values: [] }));
    return c;
  }

  /** Records why the rows could not be measured on the engine (the first failure is kept). */
  fail(keys: string[], engine: Engine, run: number, err: unknown): void {
    for (const key of keys) this.cell(key, engine).error ??= { run, message: firstLine(err) };
  }

  /**
   * One run of the rows on an engine: `measure` answers one value a row, in the rows'
   * order. A failure is recorded, never thrown; rows that failed before are not tried again.
   */
  async attempt(keys: string[], engine: Engine, run: number, measure: () => Promise<number[]>): Promise<void> {
    if (keys.some((key) => this.cell(key, engine).error)) return;
    const t0 = performance.now();
    const took = () => `${((performance.now() - t0) / 1000).toFixed(1)} s`;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`gave up after ${ATTEMPT_TIMEOUT_MS / 1000} s`)), ATTEMPT_TIMEOUT_MS);
    });
    try {
      // a path that hangs (a lock never released) fails its cell instead of holding the whole table up
      this.record(keys, engine, run, await Promise.race([measure(), timeout]), ` (${took()})`);
    } catch (err) {
      this.fail(keys, engine, run, err);
      this.log(`  ${LABEL[engine]}, run ${run + 1}: ${keys.join(', ')} FAILED (${took()}): ${firstLine(err)}`);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Values measured (by attempt, or elsewhere alongside another row's run), one a row. */
  record(keys: string[], engine: Engine, run: number, values: number[], took = ''): void {
    if (keys.some((key) => this.cell(key, engine).error)) return;
    keys.forEach((key, i) => this.cell(key, engine).values.push(values[i]));
    this.log(`  ${LABEL[engine]}, run ${run + 1}: ${keys.map((key, i) => `${key} ${formatNumber(values[i])} ${this.row(key).unit}`).join(', ')}${took}`);
  }

  private row(key: string): EngineRow {
    return this.rows.find((r) => r.key === key)!;
  }

  /** Whether a row failed on the engine (it is then not tried again). */
  failed(key: string, engine: Engine): boolean {
    return this.cell(key, engine).error !== undefined;
  }

  /** One engine first on even runs, the other on odd: neither always gets the quieter moment. */
  static order(run: number): readonly Engine[] {
    return run % 2 === 0 ? ENGINES : [...ENGINES].reverse();
  }

  table(): TextTable {
    const text = (c: Cell) => {
      if (c.values.length === 0) return c.error ? `FAILED: ${clip(c.error.message, 56)}` : 'not run';
      const figure = formatRuns(c.values);
      return c.error ? `${figure}, then FAILED` : figure;
    };
    return {
      header: ['', 'unit', 'SQLite (runs)', 'PostgreSQL (runs)', 'PostgreSQL against SQLite'],
      right: [false, false, true, true, false],
      rows: this.rows.map((r) => {
        const [sqlite, postgres] = [this.cell(r.key, 'sqlite'), this.cell(r.key, 'postgres')];
        return { group: r.group, cells: [r.name, r.unit, text(sqlite), text(postgres), compared(r, sqlite, postgres)] };
      }),
    };
  }

  /** Every measured cell as a figure for results.json (PostgreSQL's with its ratio to SQLite's). */
  figures(): Figure[] {
    const out: Figure[] = [];
    for (const engine of ENGINES) {
      for (const r of this.rows) {
        const c = this.cell(r.key, engine);
        if (c.values.length === 0) continue;
        const base = this.cell(r.key, 'sqlite');
        const ratio = engine === 'postgres' && base.values.length > 0 ? median(c.values) / median(base.values) : undefined;
        out.push({
          group: LABEL[engine],
          name: `${r.group}: ${r.name.trim()}`,
          value: median(c.values),
          unit: r.unit,
          spread: spreadOf(c.values),
          ratio,
          ratioOf: ratio === undefined ? undefined : 'SQLite',
          detail: { runs: c.values, ...(c.error ? { failed: c.error } : {}) },
        });
      }
    }
    return out;
  }

  /** One line for every failed cell: which engine, which row, which run, and why. */
  failures(): string[] {
    const out: string[] = [];
    for (const r of this.rows) {
      for (const engine of ENGINES) {
        const { error } = this.cell(r.key, engine);
        if (error) out.push(`FAILED on ${LABEL[engine]}, ${r.group}: ${r.name.trim()} (run ${error.run + 1}): ${error.message}`);
      }
    }
    return out;
  }
}

function compared(r: EngineRow, sqlite: Cell, postgres: Cell): string {
  if (sqlite.values.length === 0 || postgres.values.length === 0) return '';
  const [s, p] = [median(sqlite.values), median(postgres.values)];
  // how many times longer PostgreSQL takes for the same work
  const slower = r.better === 'higher' ? s / p : p / s;
  return slower >= 1 ? `${slower.toFixed(2)}× slower` : `${(1 / slower).toFixed(2)}× faster`;
}

const clip = (text: string, n: number) => (text.length > n ? `${text.slice(0, n - 1)}…` : text);
