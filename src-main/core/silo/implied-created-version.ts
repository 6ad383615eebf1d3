import type { Db } from '../db/engine.ts';
import type { EntryRow } from './entry-view.ts';
import type { VersionRow } from './version-keeping.ts';
import type { CompanyKey } from '../access/company-key.ts';
import { actorColumn, actorJoin, AUDIT_ACTORS_TABLE, AUDIT_ACTORS_TABLE_PG } from './audit-actors.ts';

/**
 * An entry's first version is implied until the entry first changes: it is the entry as
 * it stands (nothing history records has changed), made by whoever the audit log's
 * `entry.created` row names, at that row's time and version. Most entries never change
 * (an import of last year's invoices), and a stored first version with its key was 370
 * bytes of every entry on disk and an insert of every import.
 *
 * The row is stored as it stops being implied, in the statement that changes the entry:
 * a trigger copies it from OLD (with the document, when the write replaces it). An entry
 * changed in the very scope that creates it has no `entry.created` row yet (the scope
 * writes it as it ends): the trigger leaves it, and the version it keeps then is the
 * entry as that scope leaves it, implied in turn.
 */

/** The columns a version records: a change of any of them ends the implied first version. */
const RECORDED = ['key', 'folder', 'state', 'tags', 'data', 'digest_val', 'signed', 'invalid'];
/** What history says a creation changed (version-keeping.ts writes it into the log's row). */
export const CREATED_CHANGED: readonly string[] = Object.freeze(['document', 'state', 'folder', 'tags']);

const differs = (distinct: string, name: (c: string) => string = (c) => c) =>
  [...RECORDED.map((c) => `OLD.${name(c)} ${distinct} NEW.${name(c)}`), `(OLD.trashed_at IS NULL) ${distinct} (NEW.trashed_at IS NULL)`].join(' OR ');
const quoted = (c: string) => `"${c}"`;

const noVersionYet = `NOT EXISTS (SELECT 1 FROM entry_versions WHERE company_id = OLD.company_id AND entry_id = OLD.id)`;

/**
 * The log's row of the entry's creation: its last word on whether the entry exists, when
 * that is `entry.created` (an id purged and used again was created twice; the row of the
 * first creation is not this entry's).
 */
const creationRow = (company: string, entry: string) => `(SELECT * FROM audit_log
  WHERE company_id = ${company} AND target_id = ${entry} AND action IN ('entry.created', 'entry.deleted', 'entry.purged')
  ORDER BY seq DESC LIMIT 1)`;

/**
 * The first version, from OLD and the log's row, as both engines store it (`version` read
 * out of the row's detail by `versionOf`). `keyedActors`: the row may name its actor by key
 * (audit-actors.ts, from SQLite's 0038 and PostgreSQL's 0018; the triggers made before
 * stay as they were made).
 */
const storeFirstVersion = (versionOf: string, trashed: string, distinct: string, keyedActors = false) => `
  INSERT INTO entry_versions (entry_id, version, company_id, action, changed, state, folder, tags, key, digest, signed, invalid, trashed, data,
    reverted_from, via, actor_id, actor_name, at)
  SELECT OLD.id, coalesce(${versionOf}, 1), OLD.company_id, 'created', '${JSON.stringify(CREATED_CHANGED)}', OLD.state, OLD.folder, OLD.tags, OLD.key,
    OLD.digest_val, OLD.signed, OLD.invalid, ${trashed}, CASE WHEN OLD.data ${distinct} NEW.data THEN OLD.data END, NULL,
    a.via, ${keyedActors ? `${actorColumn('a', 'actor_id')}, ${actorColumn('a', 'actor_name')}` : 'a.actor_id, a.actor_name'}, a.at
  FROM ${creationRow('OLD.company_id', 'OLD.id')} a ${keyedActors ? `${actorJoin('a')} ` : ''}WHERE a.action = 'entry.created'`;

const keepCreatedSqlite = (keyedActors: boolean) => `CREATE TRIGGER entries_keep_created AFTER UPDATE OF ${[...RECORDED, 'trashed_at'].join(', ')} ON entries
   WHEN (${differs('IS NOT')}) AND ${noVersionYet}
   BEGIN
     ${storeFirstVersion(`CAST(json_extract(a.detail, '$.version') AS INTEGER)`, '(OLD.trashed_at IS NOT NULL)', 'IS NOT', keyedActors)};
   END`;

const keepCreatedPg = (keyedActors: boolean) => `CREATE OR REPLACE FUNCTION entries_keep_created() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     IF (${differs('IS DISTINCT FROM', quoted)}) AND ${noVersionYet} THEN
       ${storeFirstVersion(`CAST(a.detail::jsonb ->> 'version' AS bigint)`, 'CASE WHEN OLD.trashed_at IS NOT NULL THEN 1 ELSE 0 END', 'IS DISTINCT FROM', keyedActors)};
     END IF;
     RETURN NULL;
   END $$`;

/** Migration 0026 on SQLite. */
export const IMPLIED_CREATED_VERSION = [keepCreatedSqlite(false), dropImpliedVersions(`CAST(json_extract(a.detail, '$.version') AS INTEGER)`, 'IS')];

/** Migration 0011 on PostgreSQL: the same rule in a trigger function. */
export const IMPLIED_CREATED_VERSION_PG = [
  keepCreatedPg(false),
  `CREATE TRIGGER entries_keep_created AFTER UPDATE OF ${[...RECORDED, 'trashed_at'].map(quoted).join(', ')} ON entries FOR EACH ROW EXECUTE FUNCTION entries_keep_created()`,
  dropImpliedVersions(`CAST(a.detail::jsonb ->> 'version' AS bigint)`, 'IS NOT DISTINCT FROM'),
];

/** Migration 0038 on SQLite: the log's actors stored once (audit-actors.ts), and the trigger reading a row's by key. */
export const AUDIT_ACTORS_MIGRATION = [...AUDIT_ACTORS_TABLE, 'DROP TRIGGER entries_keep_created', keepCreatedSqlite(true)];

/** Migration 0018 on PostgreSQL: the same, the trigger's function replaced. */
export const AUDIT_ACTORS_MIGRATION_PG = [...AUDIT_ACTORS_TABLE_PG, keepCreatedPg(true)];

/**
 * The first versions a migration finds implied already: an entry's only version, its
 * creation, holding no document, saying what the entry says now and what the log's row
 * says of who made it and which version it was.
 */
function dropImpliedVersions(versionOf: string, same: string): string {
  const matches = ['state', 'folder', 'tags', 'key', 'signed', 'invalid'].map((c) => `v.${c} ${same} e.${c}`).join(' AND ');
  // Correlated, row by row: a set of keys collected first (IN) took 24 s at a million entries.
  return `DELETE FROM entry_versions AS v
    WHERE v.action = 'created' AND v.data IS NULL AND v.reverted_from IS NULL AND v.trashed = 0
      AND EXISTS (SELECT 1 FROM entries e WHERE e.company_id = v.company_id AND e.id = v.entry_id
        AND ${matches} AND v.digest = e.digest_val AND e.trashed_at IS NULL)
      AND NOT EXISTS (SELECT 1 FROM entry_versions o WHERE o.company_id = v.company_id AND o.entry_id = v.entry_id AND o.version <> v.version)
      AND EXISTS (SELECT 1 FROM ${creationRow('v.company_id', 'v.entry_id')} a WHERE a.action = 'entry.created'
        AND a.via = v.via AND a.actor_id = v.actor_id AND a.actor_name = v.actor_name AND ${versionOf} = v.version)`;
}

/** What the implied first version is made of: the entry, as it stands. */
export type CreatedEntry = Pick<EntryRow, 'id' | 'company_id' | 'state' | 'folder' | 'tags' | 'key' | 'digest_val' | 'signed' | 'invalid' | 'trashed_at'>;

const CREATION_ROW = `SELECT a.detail, a.via, ${actorColumn('a', 'actor_id')} AS actor_id, ${actorColumn('a', 'actor_name')} AS actor_name, a.at
  FROM ${creationRow('?', '?')} a ${actorJoin('a')} WHERE a.action = 'entry.created'`;

interface CreationRow {
  detail: string;
  via: string;
  actor_id: string;
  actor_name: string;
  at: string;
}

/** The log's row of the entry's creation, once the scope that created it has put it on record. */
export const creationOf = (db: Db, companyKey: CompanyKey, entryId: string): Promise<CreationRow | undefined> =>
  db.sqlFirst<CreationRow>(CREATION_ROW, [companyKey, entryId]);

/** The entry's implied first version, when it has no version stored (and the log says who made it); undefined otherwise. */
export async function impliedCreatedVersion(db: Db, entry: CreatedEntry): Promise<VersionRow | undefined> {
  const stored = await db.sqlFirst('SELECT 1 AS one FROM entry_versions WHERE company_id = ? AND entry_id = ? LIMIT 1', [entry.company_id, entry.id]);
  if (stored) return undefined;
  const made = await creationOf(db, entry.company_id, entry.id);
  if (!made) return undefined;
  const version = Number((JSON.parse(made.detail) as { version?: string }).version ?? 1);
  return {
    entry_id: entry.id,
    version: Number.isSafeInteger(version) && version > 0 ? version : 1,
    company_id: entry.company_id,
    action: 'created',
    changed: JSON.stringify(CREATED_CHANGED),
    state: entry.state,
    folder: entry.folder,
    tags: entry.tags,
    key: entry.key,
    digest: entry.digest_val,
    signed: entry.signed,
    invalid: entry.invalid,
    trashed: entry.trashed_at !== null ? 1 : 0,
    reverted_from: null,
    via: made.via,
    actor_id: made.actor_id,
    actor_name: made.actor_name,
    at: made.at,
  };
}
