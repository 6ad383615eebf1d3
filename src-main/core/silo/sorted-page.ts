import type { EntrySort } from '../api/contract/silo.ts';
import { invalidCursor, type KeyValue } from '../api/cursor.ts';
import { afterPosition, keysetPage, type KeyShape } from '../api/keyset-page.ts';
import type { Ctx } from '../api/handler.ts';
import { VIEW_COLUMNS, type ViewRow } from './entry-view.ts';
import type { EntryFilter } from './entry-filters.ts';
import { entrySource, type EntrySource, type Walk } from './filter-plan.ts';
import { SEQ_TIED_SORTS } from './sort-ties.ts';

export type SortBy = Exclude<EntrySort, 'created_at'>;

/** The columns the list sorts by besides created_at, each with the index that orders it (list-migration.ts, sort-ties.ts). */
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

/** How entries with the same value follow one another: by created_at, then as stored (created-ties.ts), or as stored alone (sort-ties.ts). */
interface Ties {
  columns: readonly string[];
  shape: readonly KeyShape[];
  of(row: ViewRow & Record<string, unknown>): KeyValue[];
}
const BY_CREATED: Ties = { columns: ['e.created_at', 'e.seq'], shape: ['string', 'int'], of: (row) => [row.created_at, row.seq] };
const BY_SEQ: Ties = { columns: ['e.seq'], shape: ['int'], of: (row) => [row.seq as number] };
const tiesOf = (sort: SortBy): Ties => (sort in SEQ_TIED_SORTS ? BY_SEQ : BY_CREATED);

export interface SortedPageQuery {
  sort: SortBy;
  ascending: boolean;
  limit: number;
  cursor?: string;
  /** upper bound of created_at when descending, lower bound when ascending */
  created_at?: string;
}

/**
 * One page of the company's entries ordered by a sort column, then by its ties (created_at
 * and id, or seq), with a keyset cursor (never an offset). Entries without a value come
 * after all the others in both directions: the page walks the index over the valued ones,
 * then the same index over the NULL ones. Every query names its index (INDEXED BY), so a
 * sort can never fall back to scanning and sorting the whole table. Filters are checked on
 * the rows the walk meets, or, when they keep few entries, those entries are read
 * from the narrowest filter's index and sorted (filter-plan.ts).
 *
 * A page that starts inside a run of equal values reads the rest of that run first, then
 * what lies beyond it: SQLite takes the rowid ending an index entry as a bound after an
 * equal value (`column = ? AND seq < ?`), but not inside a row value (`(column, seq) < …`),
 * where a page deep in a long run would read the whole run again.
 */
export async function sortedPage(ctx: Ctx, scope: string, filter: EntryFilter, q: SortedPageQuery): Promise<{ rows: ViewRow[]; nextCursor?: string }> {
  const { db, cursorSecret } = ctx.service;
  const { column, index } = SORTS[q.sort];
  const ties = tiesOf(q.sort);
  // The sort's own index, or the narrowest filter's rows when the filters keep few (filter-plan.ts).
  const walks: Walk[] = [{ index, within: q.sort === 'state' ? 'state' : q.sort === 'issue_date' ? 'dates' : undefined }];
  const source = await entrySource(db, ctx.caller.companyKey, filter, walks, q.limit + 1);

  return keysetPage<ViewRow>({
    secret: cursorSecret,
    scope,
    cursor: q.cursor,
    limit: q.limit,
    shape: ['string', 'any?', ...ties.shape],
    key(row) {
      const read = row as ViewRow & Record<string, unknown>;
      const value = read[column] as KeyValue;
      return [value === null ? 'n' : 'v', value, ...ties.of(read)];
    },
    async fetch(after, take) {
      if (after && !(after[0] === 'v' ? after[1] !== null : after[0] === 'n' && after[1] === null)) throw invalidCursor();
      const rows: ViewRow[] = [];
      for (const query of sortedPageQueries(source, q, after)) {
        if (rows.length === take) break;
        rows.push(...(await db.sql<ViewRow>(query.sql, [...query.params, take - rows.length])));
      }
      return rows;
    },
  });
}

/**
 * The queries that read a sorted page after `after` (from the start when undefined), in
 * order, each taking as many rows as the page still lacks (its last parameter, LIMIT ?):
 * the rest of the run of the cursor's value, the values beyond it, then the entries
 * without a value.
 */
export function sortedPageQueries(
  source: EntrySource,
  q: Pick<SortedPageQuery, 'sort' | 'ascending' | 'created_at'>,
  after: KeyValue[] | undefined,
): Array<{ sql: string; params: unknown[] }> {
  const { column, notNull } = SORTS[q.sort];
  const ties = tiesOf(q.sort);
  const dir = q.ascending ? 'ASC' : 'DESC';
  const where = [...source.where];
  const params: unknown[] = [...source.params];
  if (q.created_at) {
    where.push(`e.created_at ${q.ascending ? '>=' : '<='} ?`);
    params.push(new Date(q.created_at).toISOString());
  }
  // The view's columns (seq among them), and the sort column the next cursor is made of.
  const columns = `${VIEW_COLUMNS}, e.${column}`;
  const tieOrder = ties.columns.map((c) => `${c} ${dir}`).join(', ');
  const query = (conditions: string[], order: string, values: unknown[]) => ({
    sql: `SELECT ${columns} FROM ${source.from} WHERE ${[...where, ...conditions].join(' AND ')} ORDER BY ${order} LIMIT ?`,
    params: [...params, ...values],
  });
  const queries = [];
  if (!after) queries.push(query([`e.${column} IS NOT NULL`], `e.${column} ${dir}, ${tieOrder}`, []));
  else if (after[0] === 'v') {
    queries.push(query([`e.${column} = ?`, afterPosition(ties.columns, q.ascending)], tieOrder, [after[1], ...after.slice(2)]));
    queries.push(query([`e.${column} ${q.ascending ? '>' : '<'} ?`], `e.${column} ${dir}, ${tieOrder}`, [after[1]]));
  }
  if (!notNull) {
    const keyset = after?.[0] === 'n' ? [afterPosition(ties.columns, q.ascending)] : [];
    queries.push(query([`e.${column} IS NULL`, ...keyset], tieOrder, after?.[0] === 'n' ? after.slice(2) : []));
  }
  return queries;
}
