import type { Ctx } from '../api/handler.ts';
import { daysInMonth } from '../gobl/shape/days.ts';
import { filterSql, type EntryFilter } from './entry-filters.ts';
import { companyTsQuery, ftsQueryOf } from './search.ts';
import { SUM_COLUMNS } from './entry-sums.ts';
import { entrySource } from './filter-plan.ts';
import { NEGATIVE_TYPES } from './sort-keys.ts';
import { snippetFieldSql } from './stored-snippet.ts';

export interface CurrencySums {
  currency: string;
  count: number;
  net: string;
  tax: string;
  total: string;
}

export interface EntrySums {
  /** every matching entry, with or without amounts */
  count: number;
  /** per currency, the entries that state one; a credit note counts negative */
  list: CurrencySums[];
}

const AMOUNT = /^\s*([+-]?)(\d+)(?:\.(\d+))?\s*$/;

/** A decimal string as an exact scaled integer: 12.5 at scale 2 is 1250n. Anything else is 0. */
function scaled(value: unknown, scale: number): bigint {
  const m = typeof value === 'string' ? AMOUNT.exec(value) : null;
  if (!m) return 0n;
  const [, minus, whole, fraction = ''] = m;
  const units = BigInt(whole + fraction.padEnd(scale, '0').slice(0, scale));
  return minus === '-' ? -units : units;
}

const decimals = (value: unknown): number => (typeof value === 'string' ? (AMOUNT.exec(value)?.[3]?.length ?? 0) : 0);

function decimalString(units: bigint, scale: number): string {
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(scale + 1, '0');
  const text = scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
  return negative ? `-${text}` : text;
}

/**
 * The snippet's fields a sum reads. `->` gives PostgreSQL's JSON value (a string stays a
 * string, as json_extract gives it), so an amount that is no string counts 0 on both.
 */
const SUM_FIELDS = `e.currency AS currency, ${(['type', 'net', 'tax', 'total'] as const).map((f) => `${snippetFieldSql('e.snippet', f)} AS ${f}`).join(', ')}`;
const SUM_FIELDS_PG = `e.currency AS currency, e.snippet::jsonb -> 'type' AS type, e.snippet::jsonb -> 'net' AS net,
    e.snippet::jsonb -> 'tax' AS tax, e.snippet::jsonb -> 'total' AS total`;

/**
 * Net, tax and total of every entry matching the filters (and the search text, when
 * given), per currency, exactly: amounts are added as the decimals the documents state,
 * at the largest precision any of them has, never as floats. Filtered by folder, state
 * and dates only, the sums kept per month (entry-sums.ts) are added up, and only a month
 * the dates cut into is read; otherwise one pass over the matching rows, reading only
 * the snippet's fields.
 */
export async function sumEntries(ctx: Ctx, q: EntryFilter & { q?: string }): Promise<EntrySums> {
  if (q.q === undefined && q.tag === undefined && q.doc_uuid === undefined) {
    const kept = await keptSums(ctx, q);
    if (kept) return kept;
  }
  return scannedSums(ctx, q);
}

/** The sums by reading every matching entry's snippet (exported so tests can hold the kept sums to it). */
export async function scannedSums(ctx: Ctx, q: EntryFilter & { q?: string }): Promise<EntrySums> {
  const { db } = ctx.service;
  const company = ctx.caller.companyKey;
  const postgres = db.dialect === 'postgres';
  const filters = filterSql(q, 'e', true);
  const fields = postgres ? SUM_FIELDS_PG : SUM_FIELDS;
  const match = q.q === undefined ? undefined : postgres ? companyTsQuery(ctx.caller.companyId, q.q) : ftsQueryOf(q.q);
  if (q.q !== undefined && !match) return { count: 0, list: [] };
  const where = filters.where.map((w) => `AND ${w}`).join(' ');
  const rows = match
    ? await db.sql<SumRow>(
        postgres
          ? `SELECT ${fields} FROM entries_search s JOIN entries e ON e.seq = s.seq WHERE s.words @@ ?::tsquery AND e.company_id = ? ${where}`
          : `SELECT ${fields} FROM entries_fts f JOIN entries e ON e.seq = f.rowid
         WHERE entries_fts MATCH ? AND e.company_id = ? ${where}`,
        [match, company, ...filters.params],
      )
    : await readAll(ctx, q);

  const list = currencySums(rows);
  return { count: rows.length, list };
}

/** The figures of every entry the filters keep, read from the narrowest filter's rows when that is the cheaper way (filter-plan.ts). */
async function readAll(ctx: Ctx, q: EntryFilter): Promise<SumRow[]> {
  const { db } = ctx.service;
  const source = await entrySource(db, ctx.caller.companyKey, q, [{ index: 'entries_company_created' }], Number.MAX_SAFE_INTEGER);
  return db.sql<SumRow>(`SELECT ${db.dialect === 'postgres' ? SUM_FIELDS_PG : SUM_FIELDS} FROM ${source.from} WHERE ${source.where.join(' AND ')}`, source.params);
}

/** A month's first and last day. */
const monthStart = (month: string) => `${month}-01`;
const monthEnd = (month: string) => {
  const [y, m] = month.split('-').map(Number);
  return `${month}-${String(daysInMonth(y, m)).padStart(2, '0')}`;
};
const nextMonth = (month: string) => {
  const [y, m] = month.split('-').map(Number);
  return m === 12 ? `${y + 1}-01` : `${y}-${String(m + 1).padStart(2, '0')}`;
};
const previousMonth = (month: string) => {
  const [y, m] = month.split('-').map(Number);
  return m === 1 ? `${y - 1}-12` : `${y}-${String(m - 1).padStart(2, '0')}`;
};

/**
 * The sums from the kept groups: the whole months within the dates (every month, and the
 * undated entries, without dates), plus the entries of a month the dates cut into, read.
 * Undefined when a group holds an amount the groups cannot hold exactly.
 */
export async function keptSums(ctx: Ctx, q: EntryFilter): Promise<EntrySums | undefined> {
  const { db } = ctx.service;
  const where = ['company_id = ?'];
  const params: unknown[] = [ctx.caller.companyKey];
  const add = (condition: string, ...values: unknown[]) => {
    where.push(condition);
    params.push(...values);
  };
  if (q.folder !== undefined) add('folder = ?', q.folder);
  if (q.state !== undefined) add('state = ?', q.state);
  const cut: Array<{ from: string; to: string }> = [];
  if (q.date_from !== undefined || q.date_to !== undefined) {
    const from = q.date_from !== undefined ? q.date_from.slice(0, 7) : undefined;
    const to = q.date_to !== undefined ? q.date_to.slice(0, 7) : undefined;
    if (from !== undefined && to !== undefined && from > to) return { count: 0, list: [] };
    let low = from;
    let high = to;
    if (from !== undefined && q.date_from! > monthStart(from)) {
      cut.push({ from: q.date_from!, to: to === from ? q.date_to! : monthEnd(from) });
      low = nextMonth(from);
    }
    if (to !== undefined && q.date_to! < monthEnd(to) && !(to === from && cut.length > 0)) {
      cut.push({ from: from === to && q.date_from !== undefined ? q.date_from : monthStart(to), to: q.date_to! });
      high = previousMonth(to);
    }
    add("month <> ''");
    if (low !== undefined) add('month >= ?', low);
    if (high !== undefined) add('month <= ?', high);
  }
  // As text: exact however large (a JavaScript number is not past 2^53), and a REAL (SQLite's sum past 64 bits) shows itself.
  const sum = (c: string) => (db.dialect === 'postgres' ? `sum(${c})::text AS ${c}` : `CAST(sum(${c}) AS TEXT) AS ${c}`);
  let groups: Array<Record<string, unknown>>;
  try {
    groups = await db.sql(
      `SELECT currency, ${['entries', 'inexact', ...SUM_COLUMNS].map(sum).join(', ')} FROM entry_sums WHERE ${where.join(' AND ')} GROUP BY currency`,
      params,
    );
  } catch (err) {
    // SQLite's sum() refuses to overflow 64 bits: the entries are read instead.
    if (/integer overflow/.test(String((err as Error).message))) return undefined;
    throw err;
  }
  const whole = (v: unknown) => /^-?\d+$/.test(String(v));
  if (groups.some((g) => Number(g.inexact) > 0 || !SUM_COLUMNS.every((c) => whole(g[c])))) return undefined;
  const tally = new Map<string, CurrencyTally>();
  let count = 0;
  for (const g of groups) {
    count += Number(g.entries);
    if (g.currency !== '') addGroup(tallyOf(tally, String(g.currency)), g);
  }
  for (const part of cut) {
    const rows = await readAll(ctx, { ...q, date_from: part.from, date_to: part.to });
    count += rows.length;
    for (const row of rows) if (row.currency) addRow(tallyOf(tally, row.currency), row);
  }
  return { count, list: finish(tally) };
}

/** One matching entry's figures, as the sums query reads them. */
export type SumRow = { currency: string | null; type: unknown; net: unknown; tax: unknown; total: unknown };

type Field = 'net' | 'tax' | 'total';
const FIELDS: readonly Field[] = ['net', 'tax', 'total'];
/** Every amount is added in units of 10^-20: exact for any amount of up to 20 decimals, the most a sum is written with. */
const SCALE = 20;

/** A currency's sums so far: how many entries, each figure in units of 10^-SCALE, and the most decimals any of them had. */
interface CurrencyTally {
  count: number;
  units: Record<Field, bigint>;
  scale: Record<Field, number>;
}

function tallyOf(tally: Map<string, CurrencyTally>, currency: string): CurrencyTally {
  let t = tally.get(currency);
  if (!t) tally.set(currency, (t = { count: 0, units: { net: 0n, tax: 0n, total: 0n }, scale: { net: 0, tax: 0, total: 0 } }));
  return t;
}

function addRow(t: CurrencyTally, row: SumRow): void {
  t.count += 1;
  const sign = typeof row.type === 'string' && NEGATIVE_TYPES.has(row.type) ? -1n : 1n;
  for (const f of FIELDS) {
    t.scale[f] = Math.max(t.scale[f], Math.min(SCALE, decimals(row[f])));
    t.units[f] += sign * scaled(row[f], SCALE);
  }
}

/** A kept group (entry-sums.ts): its amounts in ten-thousandths, signed, and its count of entries per number of decimals. */
function addGroup(t: CurrencyTally, g: Record<string, unknown>): void {
  t.count += Number(g.entries);
  for (const f of FIELDS) {
    t.units[f] += BigInt(String(g[`${f}_e4`])) * 10n ** BigInt(SCALE - 4);
    for (let s = 4; s > t.scale[f]; s--) {
      if (Number(g[`${f}_s${s}`]) > 0) {
        t.scale[f] = s;
        break;
      }
    }
  }
}

function finish(tally: Map<string, CurrencyTally>): CurrencySums[] {
  const written = (t: CurrencyTally, f: Field) => decimalString(t.units[f] / 10n ** BigInt(SCALE - t.scale[f]), t.scale[f]);
  return [...tally.entries()]
    .map(([currency, t]): CurrencySums => ({ currency, count: t.count, net: written(t, 'net'), tax: written(t, 'tax'), total: written(t, 'total') }))
    .sort((a, b) => b.count - a.count || a.currency.localeCompare(b.currency));
}

/**
 * The sums of `rows` per currency, most entries first; credit notes count negative.
 * Each figure is summed exactly at the most decimals any of its group has (at most 20).
 */
export function currencySums(rows: readonly SumRow[]): CurrencySums[] {
  const tally = new Map<string, CurrencyTally>();
  for (const row of rows) if (row.currency) addRow(tallyOf(tally, row.currency), row);
  return finish(tally);
}
