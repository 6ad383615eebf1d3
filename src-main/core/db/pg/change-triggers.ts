import { NO_ORIGIN, SYNCED_TABLES, type SyncedTable } from '../change-triggers.ts';

/**
 * The change triggers of SQLite's migration 0016 on PostgreSQL, from the same table
 * list (change-triggers.ts): a write to a synced table with no origin in force is
 * refused, and otherwise moves its record's row in `sync_changes` to a new seq, one
 * version up; written again in the same transaction (the same write scope), it keeps
 * its place and version. The transaction's origin, write scope and the context of the
 * write come from settings local to the transaction (pg-db.ts sets them).
 *
 * The feed is read by seq, and a reader must never pass a seq that commits later: a
 * transaction takes a transaction-level advisory lock at its first recorded change,
 * so synced writes commit in the order of their seqs (as on SQLite, one writer at a
 * time; reads and the other writes go on meanwhile).
 *
 * Each record changed is also noted in the session's `silodesk_written` (a temporary
 * table, emptied at commit), which is what the transaction puts on record (history,
 * audit log) before it commits.
 */

/** The advisory lock key of the change log (any constant; this one spells "silo"). */
export const CHANGE_LOG_LOCK = 0x73696c6f;

const quote = (column: string) => `"${column}"`;

/** SQLite's `IS NOT` is PostgreSQL's `IS DISTINCT FROM`. */
const distinct = (t: SyncedTable, column: string): string => {
  const own = t.differs?.[column];
  if (own) return own(quote(column)).replaceAll(' IS NOT ', ' IS DISTINCT FROM ');
  return `OLD.${quote(column)} IS DISTINCT FROM NEW.${quote(column)}`;
};

/**
 * The function every change trigger calls. As migration 0002 made it, a record's note
 * in `silodesk_written` replaced its earlier one in the same scope; since 0008 every
 * write leaves its own note, so the transaction's end sees each write's context and
 * combines them (WriteHooks.merge: a record is outside history only if every write was).
 */
const recordChange = (notes: 'last' | 'every', stamped = true) => `CREATE ${notes === 'every' ? 'OR REPLACE ' : ''}FUNCTION silodesk_record_change(p_company text, p_kind text, p_record text, p_entry text, p_deleted bigint) RETURNS void
  LANGUAGE plpgsql AS $$
  DECLARE
    v_origin text := current_setting('silodesk.origin', true);
    v_scope text := current_setting('silodesk.scope', true);
    v_previous sync_changes%ROWTYPE;
    ${stamped ? `v_at text := to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"');` : ''}
  BEGIN
    IF v_origin IS NULL OR v_origin = '' THEN
      RAISE EXCEPTION '${NO_ORIGIN.replaceAll("'", "''")}';
    END IF;
    PERFORM pg_advisory_xact_lock(${CHANGE_LOG_LOCK});
    ${notes === 'last' ? 'DELETE FROM silodesk_written w WHERE w.company_id = p_company AND w.kind = p_kind AND w.record_id = p_record AND w.scope = v_scope;' : '-- each write leaves a note of its own'}
    INSERT INTO silodesk_written (company_id, kind, record_id, entry_id, deleted, scope, context)
      VALUES (p_company, p_kind, p_record, p_entry, p_deleted, v_scope, current_setting('silodesk.context', true));
    SELECT * INTO v_previous FROM sync_changes c WHERE c.company_id = p_company AND c.kind = p_kind AND c.record_id = p_record;
    IF NOT FOUND THEN
      INSERT INTO sync_changes (company_id, kind, record_id, entry_id, version, deleted, origin, remote_version, synced_version${stamped ? ', at' : ''}, written_in)
        VALUES (p_company, p_kind, p_record, p_entry, 1, p_deleted, v_origin, NULL, NULL${stamped ? ', v_at' : ''}, v_scope);
    ELSIF v_previous.written_in = v_scope THEN
      UPDATE sync_changes SET deleted = p_deleted WHERE seq = v_previous.seq;
    ELSE
      DELETE FROM sync_changes WHERE seq = v_previous.seq;
      INSERT INTO sync_changes (company_id, kind, record_id, entry_id, version, deleted, origin, remote_version, synced_version${stamped ? ', at' : ''}, written_in)
        VALUES (p_company, p_kind, p_record, p_entry, v_previous.version + 1, p_deleted, v_origin, v_previous.remote_version, v_previous.synced_version${stamped ? ', v_at' : ''}, v_scope);
    END IF;
  END $$`;

function triggerFunction(t: SyncedTable): string {
  const changed = t.columns.map((c) => distinct(t, c)).join(' OR ');
  const call = (row: string, gone: 0 | 1) =>
    `PERFORM silodesk_record_change(${row}.company_id, '${t.kind}', ${t.recordId(row)}, ${t.entryId ? t.entryId(row) : 'NULL'}, ${gone});`;
  const guard = (condition: string | undefined, body: string) => (condition ? `IF ${condition} THEN ${body} END IF;` : body);
  return `CREATE FUNCTION ${t.table}_changed() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    IF TG_OP = 'INSERT' THEN
      ${guard(t.onlyIf?.('NEW'), call('NEW', 0))}
    ELSIF TG_OP = 'UPDATE' THEN
      ${guard([`(${changed})`, t.onlyIf?.('NEW')].filter(Boolean).join(' AND '), call('NEW', 0))}
    ELSE
      ${guard([t.deletedOnlyIf?.('OLD'), t.onlyIf?.('OLD')].filter(Boolean).join(' AND ') || undefined, call('OLD', 1))}
    END IF;
    RETURN NULL;
  END $$`;
}

/** Migration 0002 on PostgreSQL: what SQLite's 0016 did. */
export const CHANGE_TRIGGERS = [
  `ALTER TABLE sync_changes ADD COLUMN entry_id text`,
  // the write scope (a transaction, or a savepoint with another origin) that last moved the row
  `ALTER TABLE sync_changes ADD COLUMN written_in text`,
  `ALTER TABLE sync_parked ADD COLUMN entry_id text`,
  `CREATE INDEX sync_changes_children ON sync_changes(company_id, entry_id) WHERE entry_id IS NOT NULL`,
  `CREATE INDEX sync_parked_children ON sync_parked(company_id, entry_id) WHERE entry_id IS NOT NULL`,
  recordChange('last'),
  ...SYNCED_TABLES.flatMap((t) => [
    triggerFunction(t),
    `CREATE TRIGGER ${t.table}_changed_insert AFTER INSERT ON ${t.table} FOR EACH ROW EXECUTE FUNCTION ${t.table}_changed()`,
    `CREATE TRIGGER ${t.table}_changed_update AFTER UPDATE OF ${t.columns.map(quote).join(', ')} ON ${t.table} FOR EACH ROW EXECUTE FUNCTION ${t.table}_changed()`,
    `CREATE TRIGGER ${t.table}_changed_delete AFTER DELETE ON ${t.table} FOR EACH ROW EXECUTE FUNCTION ${t.table}_changed()`,
  ]),
];

/** Migration 0008 on PostgreSQL: each write of a record leaves its own note (recordChange). */
export const EVERY_WRITE_NOTED = [recordChange('every')];

/** Migration 0017 on PostgreSQL, SQLite's 0035: the change rows without the time nothing read. */
export const CHANGES_UNSTAMPED_PG = [recordChange('every', false), 'ALTER TABLE sync_changes DROP COLUMN at'];

/** The session's note of what its transaction changed (created on each pooled connection). */
export const WRITTEN_TABLE = `CREATE TEMP TABLE IF NOT EXISTS silodesk_written (
  n bigint GENERATED ALWAYS AS IDENTITY,
  company_id text NOT NULL,
  kind text NOT NULL,
  record_id text NOT NULL,
  entry_id text,
  deleted bigint NOT NULL,
  scope text,
  context text
) ON COMMIT DELETE ROWS`;

/** Before migration 0008, each write found its record's earlier note in the same scope by this (a bulk write would otherwise be quadratic). */
export const WRITTEN_INDEX = `CREATE INDEX IF NOT EXISTS silodesk_written_record ON silodesk_written (company_id, kind, record_id, scope)`;
