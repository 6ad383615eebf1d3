/**
 * Migration 0028 (PostgreSQL 0012). An entry's files are read in the order they were
 * stored (`ORDER BY created_at`: every job answered, every entry shown), and the primary
 * key orders them by id, so each read set up a sort, even for an entry with no file: 9 µs
 * of a 3 µs look-up. This index reads them in order.
 */
export const ATTACHMENTS_IN_ORDER = ['CREATE INDEX IF NOT EXISTS attachments_entry_created ON attachments (company_id, entry_id, created_at)'];
