import type { Ctx } from '../api/handler.ts';
import { filterSql, type EntryFilter } from './entry-filters.ts';
import { companyTsQuery, ftsQueryOf } from './search.ts';
import { NEGATIVE_TYPES } from './sort-keys.ts';

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
const SUM_FIELDS = `e.currency AS currency, json_extract(e.snippet, '$.type') AS type, json_extract(e.snippet, '$.net') AS net,
    json_extract(e.snippet, '$.tax') AS tax, json_extract(e.snippet, '$.total') AS total`;
const SUM_FIELDS_PG = `e.currency AS currency, e.snippet::jsonb -> 'type' AS type, e.snippet::jsonb -> 'net' AS net,
    e.snippet::jsonb -> 'tax' AS tax, e.snippet::jsonb -> 'total' AS total`;

/**
 * Net, tax and total of every entry matching the filters (and the search text, when
 * given), per currency, exactly: amounts are added as the decimals the documents state,
 * at the largest precision any of them has, never as floats. One pass over the
 * matching rows, reading only the snippet's fields.
 */
export async function sumEntries(ctx: Ctx, q: EntryFilter & { q?: string }): Promise<EntrySums> {
  const { db } = ctx.service;
  const company = ctx.caller.companyId;
  const postgres = db.dialect === 'postgres';
  const filters = filterSql(q, 'e', true);
  const fields = postgres ? SUM_FIELDS_PG : SUM_FIELDS;
  const match = q.q === undefined ? undefined : postgres ? companyTsQuery(company, q.q) : ftsQueryOf(q.q);
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
    : await db.sql<SumRow>(`SELECT ${fields} FROM entries e WHERE e.company_id = ? ${where}`, [company, ...filters.params]);

  const list = currencySums(rows);
  return { count: rows.length, list };
}

/** One matching entry's figures, as the sums query reads them. */
export type SumRow = { currency: string | null; type: unknown; net: unknown; tax: unknown; total: unknown };

/**
 * The sums of `rows` per currency, most entries first; credit notes count negative.
 * Each figure is summed exactly at the most decimals any of its group has (at most 20).
 */
export function currencySums(rows: readonly SumRow[]): CurrencySums[] {
  const byCurrency = new Map<string, SumRow[]>();
  for (const row of rows) {
    if (!row.currency) continue;
    const list = byCurrency.get(row.currency) ?? [];
    list.push(row);
    byCurrency.set(row.currency, list);
  }
  return [...byCurrency.entries()]
    .map(([currency, group]): CurrencySums => {
      const sum = (field: 'net' | 'tax' | 'total') => {
        // A loop, not Math.max(...group): spreading 150,000 arguments overflows the stack.
        let scale = 0;
        for (const r of group) scale = Math.max(scale, decimals(r[field]));
        scale = Math.min(20, scale);
        let units = 0n;
        for (const r of group) units += (typeof r.type === 'string' && NEGATIVE_TYPES.has(r.type) ? -1n : 1n) * scaled(r[field], scale);
        return decimalString(units, scale);
      };
      return { currency, count: group.length, net: sum('net'), tax: sum('tax'), total: sum('total') };
    })
    .sort((a, b) => b.count - a.count || a.currency.localeCompare(b.currency));
}
