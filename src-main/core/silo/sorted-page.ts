import type { EntrySort } from '../api/contract/silo.ts';
import { invalidCursor, type KeyValue } from '../api/cursor.ts';
import { afterPosition, keysetPage, type KeyShape } from '../api/keyset-page.ts';
import type { Ctx } from '../api/handler.ts';
import { VIEW_COLUMNS, type ViewRow } from './entry-view.ts';
import type { EntryFilter } from './entry-filters.ts';
import { entrySource, type Walk } from './filter-plan.ts';

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

/**
 * Where a page ends: the group of entries that have a value (`v`) or of those that
 * have none (`n`), the value, created_at and id.
 */
const POSITION: readonly KeyShape[] = ['string', 'any?', 'string', 'string'];

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
 * can never fall back to scanning and sorting the whole table. Filters are checked on
 * the rows the walk meets, or, when they keep few entries, those entries are read
 * from the narrowest filter's index and sorted (filter-plan.ts).
 */
export async function sortedPage(ctx: Ctx, scope: string, filter: EntryFilter, q: SortedPageQuery): Promise<{ rows: ViewRow[]; nextCursor?: string }> {
  const { db, cursorSecret } = ctx.service;
  const { column, index, notNull } = SORTS[q.sort];
  const dir = q.ascending ? 'ASC' : 'DESC';

  // The sort's own index, or the narrowest filter's rows when the filters keep few (filter-plan.ts).
  const walks: Walk[] = [{ index, within: q.sort === 'state' ? 'state' : q.sort === 'issue_date' ? 'dates' : undefined }];
  const source = await entrySource(db, ctx.caller.companyId, filter, walks, q.limit + 1);
  const from = `FROM ${source.from}`;
  const where = [...source.where];
  const params: unknown[] = [...source.params];
  if (q.created_at) {
    where.push(`e.created_at ${q.ascending ? '>=' : '<='} ?`);
    params.push(new Date(q.created_at).toISOString());
  }
  // The view's columns, and the sort column the next cursor is made of.
  const columns = `${VIEW_COLUMNS}, e.${column}`;

  return keysetPage<ViewRow>({
    secret: cursorSecret,
    scope,
    cursor: q.cursor,
    limit: q.limit,
    shape: POSITION,
    key(row) {
      const value = (row as ViewRow & Record<string, unknown>)[column] as KeyValue;
      return [value === null ? 'n' : 'v', value, row.created_at, row.id];
    },
    async fetch(after, take) {
      if (after && !(after[0] === 'v' ? after[1] !== null : after[0] === 'n' && after[1] === null)) throw invalidCursor();
      const rows: ViewRow[] = [];
      if (!after || after[0] === 'v') {
        const keyset = after ? [afterPosition([`e.${column}`, 'e.created_at', 'e.id'], q.ascending)] : [];
        rows.push(
          ...(await db.sql<ViewRow>(
            `SELECT ${columns} ${from}
             WHERE ${[...where, `e.${column} IS NOT NULL`, ...keyset].join(' AND ')}
             ORDER BY e.${column} ${dir}, e.created_at ${dir}, e.id ${dir} LIMIT ?`,
            [...params, ...(after ? after.slice(1) : []), take],
          )),
        );
      }
      if (rows.length < take && !notNull) {
        const keyset = after?.[0] === 'n' ? [afterPosition(['e.created_at', 'e.id'], q.ascending)] : [];
        rows.push(
          ...(await db.sql<ViewRow>(
            `SELECT ${columns} ${from}
             WHERE ${[...where, `e.${column} IS NULL`, ...keyset].join(' AND ')}
             ORDER BY e.created_at ${dir}, e.id ${dir} LIMIT ?`,
            [...params, ...(after?.[0] === 'n' ? after.slice(2) : []), take - rows.length],
          )),
        );
      }
      return rows;
    },
  });
}
