import { sql, type Kysely } from 'kysely';

/**
 * Every write records its change in one place: the database (issue 14). A write to a
 * synced table fires a trigger that moves the record's row in `sync_changes` (the
 * outbox and the feed) to a new seq, one version up, exactly as the hand-written
 * `recordChange` calls did before; no write path can forget it, and a write made with
 * no origin in force (no `store.tx(fn, { origin })` around it) is refused outright.
 *
 * The triggers learn the transaction's origin and mark from functions the connection
 * registers (write-scopes.ts): SQLite forbids a trigger of the main schema from reading
 * a TEMP table, and an application-defined function is what PostgreSQL's
 * `current_setting('silodesk.origin', true)` becomes here.
 */

/** A synced table: which record kind its rows are, and which of its columns that record carries. */
export interface SyncedTable {
  kind: string;
  table: string;
  /** the record's id as sync names it, over the trigger's row (`NEW` or `OLD`) */
  recordId: (row: string) => string;
  /** the entry a child record hangs from (attachments, meta), kept beside the change for look-ups by entry */
  entryId?: (row: string) => string;
  /** the columns whose change is a change of the record; any other column (derived, local) changes nothing synced */
  columns: string[];
  /** how two values of a column are told apart when `IS NOT` does not say it (trash: in or out, not when) */
  differs?: Record<string, (column: string) => string>;
  /**
   * A row deleted with its parent (ON DELETE CASCADE) is no change of its own: the
   * parent's deletion (a tombstone) says it, and the other side deletes the children
   * with it. Only a row deleted while its parent stays is a deletion of the record.
   */
  deletedOnlyIf?: (row: string) => string;
  /** a change of the record only when this holds of the changed row */
  onlyIf?: (row: string) => string;
}

const entryStays = (row: string) => `EXISTS (SELECT 1 FROM entries e WHERE e.company_id = ${row}.company_id AND e.id = ${row}.entry_id)`;

/** One entry per table; a record kind may span two (a workflow and its versions). Read with records/*.ts `read` and `content`. */
export const SYNCED_TABLES: SyncedTable[] = [
  {
    kind: 'entry',
    table: 'entries',
    recordId: (r) => `${r}.id`,
    // Not `version`, `updated_at`, the derived and sort columns, step faults or created_at: none is in the record's state.
    columns: ['key', 'folder', 'state', 'tags', 'data', 'trashed_at'],
    differs: { trashed_at: (c) => `(OLD.${c} IS NULL) IS NOT (NEW.${c} IS NULL)` },
  },
  {
    kind: 'attachment',
    table: 'attachments',
    recordId: (r) => `${r}.entry_id || ':' || ${r}.id`,
    entryId: (r) => `${r}.entry_id`,
    // key, category, embeddable and private are this instance's own: they do not sync.
    columns: ['name', 'desc', 'mime', 'meta', 'hash', 'size'],
    deletedOnlyIf: entryStays,
  },
  {
    kind: 'meta',
    table: 'entry_meta',
    recordId: (r) => `${r}.entry_id || ':' || ${r}.src || ':' || ${r}.key`,
    entryId: (r) => `${r}.entry_id`,
    columns: ['ref', 'value', 'shared', 'link_scope', 'link_url'],
    deletedOnlyIf: entryStays,
  },
  {
    // The record is the current version's definition: a new current version is a change.
    kind: 'workflow',
    table: 'workflows',
    recordId: (r) => `${r}.id`,
    columns: ['version'],
  },
  {
    kind: 'workflow',
    table: 'workflow_versions',
    recordId: (r) => `${r}.workflow_id`,
    columns: ['definition'],
    // Only the version the workflow points at is its state.
    onlyIf: (r) =>
      `EXISTS (SELECT 1 FROM workflows w WHERE w.company_id = ${r}.company_id AND w.id = ${r}.workflow_id AND w.version = ${r}.version)`,
  },
  {
    kind: 'series',
    table: 'series',
    recordId: (r) => `${r}.id`,
    // Not the head (last_index, last_entry_id): it moves as entries are issued, on every copy by itself.
    columns: ['name', 'description', 'code', 'prefix', 'padding', 'suffix', 'start', 'issuer', 'sigs'],
  },
  {
    kind: 'series_entry',
    table: 'series_entries',
    recordId: (r) => `${r}.id`,
    columns: ['series_id', 'idx', 'code', 'meta', 'previous_id', 'sigs'],
  },
  {
    kind: 'trusted_jwks',
    table: 'trusted_jwks',
    recordId: (r) => `${r}.id`,
    columns: ['name', 'keys'],
  },
];

/** What a write with no origin in force is told (the transaction API, engine.ts, names it). */
export const NO_ORIGIN = 'silodesk: a synced table was written outside a transaction with an origin (store.tx(fn, { origin }))';

/**
 * The bookkeeping every table's triggers share. A record already in the log hands its
 * row to `sync_change_moves`, whose trigger decides: written before by the same
 * transaction (its row is past the transaction's mark), it keeps its place and version,
 * one logical write being one change; else the row is deleted and inserted anew, one
 * version up, moving to a new seq with what the remote agreed on carried over. Plain
 * statements only: an outer `INSERT OR IGNORE` overrides any conflict clause inside a
 * trigger, and could make a change silently go unrecorded.
 */
const moves = (stamp: Stamp): string[] => [
  `CREATE VIEW sync_change_moves AS
     SELECT seq, company_id, kind, record_id, entry_id, deleted, version, remote_version, synced_version FROM sync_changes WHERE 0`,
  `CREATE TRIGGER sync_change_moved INSTEAD OF INSERT ON sync_change_moves BEGIN
     UPDATE sync_changes SET deleted = NEW.deleted WHERE seq = NEW.seq AND NEW.seq > silodesk_mark();
     DELETE FROM sync_changes WHERE seq = NEW.seq AND NEW.seq <= silodesk_mark();
     INSERT INTO sync_changes (company_id, kind, record_id, entry_id, version, deleted, origin, remote_version, synced_version${stamp.column})
       SELECT NEW.company_id, NEW.kind, NEW.record_id, NEW.entry_id, NEW.version + 1, NEW.deleted, silodesk_origin(),
              NEW.remote_version, NEW.synced_version${stamp.value}
       WHERE NEW.seq <= silodesk_mark();
   END`,
];

/**
 * Until migration 0035 every change row kept the time it was written (`at`, 24 bytes of
 * every entry's change row); nothing ever read it (the feed orders by seq, and a record
 * carries its own times), so it went. The triggers of 0016 are made as they were then.
 */
interface Stamp {
  column: string;
  value: string;
}
const STAMPED: Stamp = { column: ', at', value: ', silodesk_now()' };
const UNSTAMPED: Stamp = { column: '', value: '' };

/** The statements a table's trigger runs for one changed row: refused with no origin in force, else recorded. */
function written(t: SyncedTable, row: string, deleted: 0 | 1, stamp: Stamp): string {
  const id = t.recordId(row);
  const entry = t.entryId ? t.entryId(row) : 'NULL';
  const key = (alias: string) => `${alias}.company_id = ${row}.company_id AND ${alias}.kind = '${t.kind}' AND ${alias}.record_id = ${id}`;
  return `SELECT RAISE(ABORT, '${NO_ORIGIN}') WHERE silodesk_written(${row}.company_id, '${t.kind}', ${id}, ${entry}, ${deleted}) IS NULL;
       INSERT INTO sync_change_moves (seq, company_id, kind, record_id, entry_id, deleted, version, remote_version, synced_version)
         SELECT o.seq, o.company_id, o.kind, o.record_id, ${entry}, ${deleted}, o.version, o.remote_version, o.synced_version
         FROM sync_changes o WHERE ${key('o')};
       INSERT INTO sync_changes (company_id, kind, record_id, entry_id, version, deleted, origin, remote_version, synced_version${stamp.column})
         SELECT ${row}.company_id, '${t.kind}', ${id}, ${entry}, 1, ${deleted}, silodesk_origin(), NULL, NULL${stamp.value}
         WHERE NOT EXISTS (SELECT 1 FROM sync_changes c WHERE ${key('c')});`;
}

const when = (...conditions: Array<string | undefined>): string => {
  const set = conditions.filter((c): c is string => c !== undefined);
  return set.length ? ` WHEN ${set.map((c) => `(${c})`).join(' AND ')}` : '';
};

/** The insert, update and delete triggers of one synced table. */
function triggersOf(t: SyncedTable, stamp: Stamp): string[] {
  const changed = t.columns.map((c) => (t.differs?.[c] ?? ((col: string) => `OLD.${col} IS NOT NEW.${col}`))(c)).join(' OR ');
  return [
    `CREATE TRIGGER ${t.table}_changed_insert AFTER INSERT ON ${t.table}${when(t.onlyIf?.('NEW'))} BEGIN
       ${written(t, 'NEW', 0, stamp)}
     END`,
    `CREATE TRIGGER ${t.table}_changed_update AFTER UPDATE OF ${t.columns.join(', ')} ON ${t.table}${when(changed, t.onlyIf?.('NEW'))} BEGIN
       ${written(t, 'NEW', 0, stamp)}
     END`,
    `CREATE TRIGGER ${t.table}_changed_delete AFTER DELETE ON ${t.table}${when(t.deletedOnlyIf?.('OLD'), t.onlyIf?.('OLD'))} BEGIN
       ${written(t, 'OLD', 1, stamp)}
     END`,
  ];
}

/**
 * Migration 0016: the change rows gain the entry a child record hangs from (no more
 * string ranges over `entry-id:…` ids), filled for the rows already there by the one
 * parse of the old ids this ever does; parked pushes likewise; then the triggers.
 */
export async function recordChangesByTriggers(db: Kysely<any>): Promise<void> {
  const run = (statement: string) => sql.raw(statement).execute(db);
  const entryOfId = `substr(record_id, 1, instr(record_id, ':') - 1)`;
  const children = `kind IN ('attachment', 'meta') AND instr(record_id, ':') > 0`;
  await run(`ALTER TABLE sync_changes ADD COLUMN entry_id TEXT`);
  await run(`UPDATE sync_changes SET entry_id = ${entryOfId} WHERE ${children}`);
  // A parked push of a child names its entry too: the entry's deletion pulled makes it moot (parked.ts).
  await run(`ALTER TABLE sync_parked ADD COLUMN entry_id TEXT`);
  await run(`UPDATE sync_parked SET entry_id = ${entryOfId} WHERE direction = 'push' AND ${children}`);
  await run(`CREATE INDEX sync_changes_children ON sync_changes(company_id, entry_id) WHERE entry_id IS NOT NULL`);
  await run(`CREATE INDEX sync_parked_children ON sync_parked(company_id, entry_id) WHERE entry_id IS NOT NULL`);
  for (const statement of changeTriggers(STAMPED)) await run(statement);
}

const changeTriggers = (stamp: Stamp): string[] => [...moves(stamp), ...SYNCED_TABLES.flatMap((t) => triggersOf(t, stamp))];

/**
 * Migration 0035: the change rows without their time. SQLite drops a column only when no
 * trigger or view names it, so the triggers are made anew around the drop, as they were
 * but for the time (the drop rewrites every change row: a few seconds at a million).
 */
export const CHANGES_UNSTAMPED: string[] = [
  'DROP VIEW sync_change_moves',
  ...SYNCED_TABLES.flatMap((t) => ['insert', 'update', 'delete'].map((op) => `DROP TRIGGER ${t.table}_changed_${op}`)),
  'ALTER TABLE sync_changes DROP COLUMN at',
  ...changeTriggers(UNSTAMPED),
];
