/**
 * The list's sorts whose ties go in the order entries were stored here (their `seq`),
 * not by created_at and id: by due date, number, party and amount. Their indexes are
 * (company, column) alone: SQLite ends every index entry with the rowid, which `seq` is,
 * so the walk in (column, seq) order comes free, where created_at and id cost about 60
 * bytes an entry in each index (migration 0023: about 540 B an entry in all). The
 * issue-date and state sorts tie by created_at first, then seq (created-ties.ts): the list
 * filtered by a state walks that index in created order, and exports walk the issue-date
 * one (selection-windows.ts).
 */
export const SEQ_TIED_SORTS = {
  due_date: 'due_date',
  number: 'number_key',
  supplier: 'supplier_key',
  customer: 'customer_key',
  net: 'net_e4',
  tax: 'tax_e4',
  total: 'total_e4',
} as const;

const rebuilt = (tail: string): string[] =>
  Object.entries(SEQ_TIED_SORTS).flatMap(([sort, column]) => [
    `DROP INDEX entries_sort_${sort}`,
    `CREATE INDEX entries_sort_${sort} ON entries(company_id, ${column}${tail})`,
  ]);

/** Migration 0023: the seq-tied sorts' indexes without created_at and id. */
export const SORTS_TIED_BY_SEQ = rebuilt('');
/** Its PostgreSQL twin (0007), where an index holds only the columns it names. */
export const SORTS_TIED_BY_SEQ_PG = rebuilt(', seq');
