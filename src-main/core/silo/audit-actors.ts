import type { Db } from '../db/engine.ts';
import type { Actor } from './audit-actor.ts';

/**
 * Who an audit row names (a token's id and name, the operation it ran) is stored once, in
 * `audit_actors`, and the row names it by key: an import's million rows all say "the
 * owner's token, importEntries", 71 bytes of every entry on disk (issue 13). The row keeps
 * `via`, which its index by action and origin reads (audit-streams.ts).
 *
 * A job's actor names that one job, so a key would not be shared: its rows keep their actor
 * in the row, as rows stored before keyed actors do (no key; storedOnce). A keyed row
 * stores its three texts empty. Every reader goes through `actorColumn`, so both forms read
 * the same, and the chain (audit-log.ts) is made and checked over what they read, never over
 * how it is stored.
 *
 * A key is never remembered past the transaction that looked it up: a key given by one that
 * rolled back is given again (SQLite), and a remembered one would name the wrong actor.
 */
const TABLE_SQLITE = `CREATE TABLE audit_actors (
  key INTEGER PRIMARY KEY,
  actor_id TEXT NOT NULL,
  actor_name TEXT NOT NULL,
  operation TEXT NOT NULL,
  UNIQUE (actor_id, actor_name, operation)
) STRICT`;

const TABLE_PG = `CREATE TABLE audit_actors (
  key bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  actor_id text NOT NULL,
  actor_name text NOT NULL,
  operation text NOT NULL,
  UNIQUE (actor_id, actor_name, operation)
)`;

/**
 * The table, guarded as the log is (a row's actor rewritten is the row rewritten), and the
 * log's key column: the first part of SQLite's 0038 and PostgreSQL's 0018.
 */
export const AUDIT_ACTORS_TABLE = [
  TABLE_SQLITE,
  `CREATE TRIGGER audit_actors_no_update BEFORE UPDATE ON audit_actors BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END`,
  `CREATE TRIGGER audit_actors_no_delete BEFORE DELETE ON audit_actors BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END`,
  `ALTER TABLE audit_log ADD COLUMN actor INTEGER`,
];
export const AUDIT_ACTORS_TABLE_PG = [
  TABLE_PG,
  `CREATE TRIGGER audit_actors_no_change BEFORE UPDATE OR DELETE ON audit_actors FOR EACH ROW EXECUTE FUNCTION audit_log_append_only()`,
  `ALTER TABLE audit_log ADD COLUMN actor bigint`,
];

/** Joins the actor a log row (aliased `row`) names by key, as `who`: actorColumn reads it. */
export const actorJoin = (row: string): string => `LEFT JOIN audit_actors who ON who.key = ${row}.actor`;

/** One of a log row's actor columns as it reads, its actor joined (actorJoin). An operation stored as '' is none. */
export const actorColumn = (row: string, column: 'actor_id' | 'actor_name' | 'operation'): string =>
  column === 'operation'
    ? `CASE WHEN ${row}.actor IS NULL THEN ${row}.operation ELSE nullif(who.operation, '') END`
    : `CASE WHEN ${row}.actor IS NULL THEN ${row}.${column} ELSE who.${column} END`;

/** The log's rows `inner` selects (every column, at most a page), as they read, ordered by seq. */
export const withActors = (inner: string, order: 'ASC' | 'DESC'): string =>
  `SELECT logged.seq, logged.company_id, logged.at, logged.via, ${actorColumn('logged', 'actor_id')} AS actor_id,
     ${actorColumn('logged', 'actor_name')} AS actor_name, ${actorColumn('logged', 'operation')} AS operation,
     logged.action, logged.target_kind, logged.target_id, logged.detail, logged.hash
   FROM (${inner}) AS logged ${actorJoin('logged')} ORDER BY logged.seq ${order}`;

/** Whether `actor` is stored once and named by key: not a job's, which names one job (its rows would share nothing). */
export const storedOnce = (actor: Actor): boolean => actor.via !== 'workflow';

const FIND = 'SELECT key FROM audit_actors WHERE actor_id = ? AND actor_name = ? AND operation = ?';
// Another PostgreSQL transaction may add the same actor at once: the loser adds nothing and finds the winner's.
const ADD = 'INSERT INTO audit_actors (actor_id, actor_name, operation) VALUES (?, ?, ?) ON CONFLICT DO NOTHING RETURNING key';

/** PostgreSQL gives a bigint as text. */
type KeyRow = { key: number | string };

/** Actors' keys as one transaction found or gave them (appends made in a row: AuditBatch). */
export type ActorKeys = Map<string, number>;

/** The key of `actor`, added when it has none: in the caller's transaction, so it goes if that rolls back. */
export async function actorKeyOf(db: Db, actor: Actor, known?: ActorKeys): Promise<number> {
  const values = [actor.id, actor.name, actor.operation ?? ''];
  const memo = values.join('\u0000');
  const hit = known?.get(memo);
  if (hit !== undefined) return hit;
  const find = () => db.sqlFirst<KeyRow>(FIND, values);
  const row = (await find()) ?? (await db.sqlFirst<KeyRow>(ADD, values)) ?? (await find());
  if (!row) throw new Error('an audit actor could be neither found nor added');
  const key = Number(row.key);
  known?.set(memo, key);
  return key;
}
