/**
 * The created order's ties go in the order entries were stored here (their `seq`), as the
 * other sorts' have since 0023 (sort-ties.ts): the newest-first list and its folder and
 * state walks, and the issue-date sort and exports, order by (created_at, seq), no longer
 * (created_at, id). Their indexes end with created_at alone: SQLite ends every index entry
 * with the rowid, which `seq` is, and the 37 bytes of an entry id in each of these four
 * indexes go (migration 0032, about 165 B an entry).
 */
export const CREATED_ORDER_INDEXES: Record<string, string> = {
  entries_company_created: '',
  entries_company_folder_created: 'folder, ',
  entries_sort_state: 'state, ',
  entries_sort_issue_date: 'issue_date, ',
};

const rebuilt = (tail: string): string[] =>
  Object.entries(CREATED_ORDER_INDEXES).flatMap(([name, lead]) => [
    `DROP INDEX ${name}`,
    `CREATE INDEX ${name} ON entries(company_id, ${lead}created_at${tail})`,
  ]);

/** Migration 0032: the created order's indexes without the entry id. */
export const CREATED_TIED_BY_SEQ = rebuilt('');
/** Its PostgreSQL twin (0014), where an index holds only the columns it names. */
export const CREATED_TIED_BY_SEQ_PG = rebuilt(', seq');
