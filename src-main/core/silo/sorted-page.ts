import type { EntrySort } from '../api/contract/silo.ts';
import { badRequest } from '../api/errors.ts';
import { decodeCursor, encodeCursor } from '../api/cursor.ts';
import type { Ctx } from '../api/handler.ts';
import { VIEW_COLUMNS, type ViewRow } from './entry-view.ts';
import { filterSql, type EntryFilter } from './entry-filters.ts';

export type SortBy = Exclude<EntrySort, 'created_at'>;

/** The columns the list sorts by besides created_at, each with the index that orders it (list-migration.ts). */
export const SORTS: Record<SortBy, { column: string; index: string; notNull?: true }> = {
  issue_date: { column: 'issue_date', index: 'entries_sort_issue_date' },
  due_date: { column: 'due_date', index: 'entries_sort_due_date' },
  number: { column: 'number_key', index: 'entries_sort_number' },
  supplier: { column: 'supplier_key', index: 'entries_sort_supplier' },
  customer: { column: 'customer_key', index: 'entries_sort_customer' },
  net: { column: 'net_e4', index: 'entries_sort_net' },
  tax: { column: 'tax_e4', index: 'entries_sort_tax' },
  total: { column: 'total_e4', index: 'entries_sort_total' },
  // Every entry has a state: there is no group without one to walk (and SQLite drops `IS NULL` on a NOT NULL column).
  state: { column: 'state', index: 'entries_sort_state', notNull: true },
};

type SortValue = string | number;
/** Where a page ends: in the group of entries that have a value (`v`), or of those that have none (`n`). */
interface Position {
  group: 'v' | 'n';
  value: SortValue | null;
  at: string;
  id: string;
}

export interface SortedPageQuery {
  sort: SortBy;
  ascending: boolean;
  limit: number;
  cursor?: string;
  /** upper bound of created_at when descending, lower bound when ascending */
  created_at?: string;
}

/**
 * One page of the company's entries ordered by a sort column, then created_at and id,
 * with a keyset cursor (never an offset). Entries without a value come after all the
 * others in both directions: the page walks the index over the valued ones, then the
 * same index over the NULL ones. Every query names its index (INDEXED BY), so a sort
 * can never fall back to scanning and sorting the whole table; filters are checked on
 * the rows the walk meets.
 */
export function sortedPage(ctx: Ctx, scope: string, filter: EntryFilter, q: SortedPageQuery): { rows: ViewRow[]; nextCursor?: string } {
  const { store, cursorSecret } = ctx.service;
  const { column, index, notNull } = SORTS[q.sort];
  const dir = q.ascending ? 'ASC' : 'DESC';
  const cmp = q.ascending ? '>' : '<';
  const from = q.cursor ? decodePosition(cursorSecret, scope, q.cursor) : undefined;

  const base = filterSql(filter, 'e');
  const where = ['e.company_id = ?', ...base.where];
  const params: unknown[] = [ctx.caller.companyId, ...base.params];
  if (q.created_at) {
    where.push(`e.created_at ${q.ascending ? '>=' : '<='} ?`);
    params.push(new Date(q.created_at).toISOString());
  }

  // The view's columns, and the sort column the next cursor is made of.
  const columns = `${VIEW_COLUMNS}, e.${column}`;
  const rows: ViewRow[] = [];
  const want = q.limit + 1;
  if (!from || from.group === 'v') {
    const keyset = from ? [`(e.${column}, e.created_at, e.id) ${cmp} (?, ?, ?)`] : [];
    rows.push(
      ...(store
        .statement(
          `SELECT ${columns} FROM entries e INDEXED BY ${index}
           WHERE ${[...where, `e.${column} IS NOT NULL`, ...keyset].join(' AND ')}
           ORDER BY e.${column} ${dir}, e.created_at ${dir}, e.id ${dir} LIMIT ?`,
        )
        .all(...params, ...(from ? [from.value, from.at, from.id] : []), want) as ViewRow[]),
    );
  }
  if (rows.length < want && !notNull) {
    const keyset = from?.group === 'n' ? [`(e.created_at, e.id) ${cmp} (?, ?)`] : [];
    rows.push(
      ...(store
        .statement(
          `SELECT ${columns} FROM entries e INDEXED BY ${index}
           WHERE ${[...where, `e.${column} IS NULL`, ...keyset].join(' AND ')}
           ORDER BY e.created_at ${dir}, e.id ${dir} LIMIT ?`,
        )
        .all(...params, ...(from?.group === 'n' ? [from.at, from.id] : []), want - rows.length) as ViewRow[]),
    );
  }
  const more = rows.length > q.limit;
  if (more) rows.pop();
  const last = rows[rows.length - 1] as (ViewRow & Record<string, unknown>) | undefined;
  if (!more || !last) return { rows };
  const value = last[column] as SortValue | null;
  const position: Position = { group: value === null ? 'n' : 'v', value, at: last.created_at, id: last.id };
  return { rows, nextCursor: encodeCursor(cursorSecret, scope, { at: JSON.stringify([position.group, position.value, position.at]), id: position.id }) };
}

function decodePosition(secret: Buffer, scope: string, cursor: string): Position {
  const { at, id } = decodeCursor(secret, scope, cursor);
  const invalid = () => badRequest('cursor is not valid for this list', { cursor: 'invalid or tampered cursor' });
  let parsed: unknown;
  try {
    parsed = JSON.parse(at);
  } catch {
    throw invalid();
  }
  if (!Array.isArray(parsed) || parsed.length !== 3) throw invalid();
  const [group, value, createdAt] = parsed as unknown[];
  if ((group !== 'v' && group !== 'n') || typeof createdAt !== 'string') throw invalid();
  if (group === 'v' ? typeof value !== 'string' && typeof value !== 'number' : value !== null) throw invalid();
  return { group, value: value as SortValue | null, at: createdAt, id };
}
