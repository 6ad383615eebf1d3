/**
 * Migration 0036: the audit log's target and action indexes end before `seq`. The table
 * is keyed by seq (INTEGER PRIMARY KEY, the rowid), and SQLite ends every index entry
 * with the rowid anyway: each held it twice, about 5 bytes an entry per index. The order
 * is the same (rowid last), so `seq < ?` and `ORDER BY seq` read the same entries as
 * before (test/api/perf-plans.test.ts).
 *
 * The indexes over a company's whole log (audit_log_company, sync_changes_feed, the
 * outbox's) are left as they were: which way SQLite walks them depends on the statistics
 * of how many companies share the file, and that was not measured for this change.
 * PostgreSQL's indexes point at rows, not seqs: they keep it.
 */
const remade = (name: string, definition: string): string[] => [`DROP INDEX ${name}`, `CREATE INDEX ${name} ON ${definition}`];

export const SEQ_TAILS_DROPPED: string[] = [
  ...remade('audit_log_target', 'audit_log(company_id, target_id)'),
  ...remade('audit_log_action', 'audit_log(company_id, action, via)'),
];
