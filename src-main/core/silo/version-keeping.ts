import type { Db } from '../db/engine.ts';
import { currentAction, currentActor } from './audit-actor.ts';
import { appendAudit, type AuditBatch } from './audit-log.ts';
import { CREATED_CHANGED, creationOf } from './implied-created-version.ts';
import { snippetFromStored } from './stored-snippet.ts';
import type { CompanyKey } from '../access/company-key.ts';

/** What a version row holds (entry_versions); `data` only once a later version replaced its document. */
export interface VersionRow {
  entry_id: string;
  version: number;
  company_id: CompanyKey;
  action: string;
  changed: string;
  state: string;
  folder: string;
  tags: string;
  key: string | null;
  digest: string;
  signed: number;
  invalid: number;
  trashed: number;
  reverted_from: number | null;
  via: string;
  actor_id: string;
  actor_name: string;
  at: string;
}

/** The entry's state as history compares it. */
interface EntryState {
  id: string;
  company_id: CompanyKey;
  version: number;
  state: string;
  folder: string;
  tags: string;
  key: string | null;
  digest_val: string;
  signed: number;
  invalid: number;
  trashed_at: string | null;
  snippet: string;
  updated_at: string;
}

// Every look-up names the company first: an entry id is only unique within its company (issue 12).
const ENTRY_STATE_COLUMNS = 'id, company_id, version, state, folder, tags, key, digest_val, signed, invalid, trashed_at, snippet, updated_at';
const ENTRY_STATE = `SELECT ${ENTRY_STATE_COLUMNS} FROM entries WHERE company_id = ? AND id = ?`;
export const VERSION_COLUMNS = `entry_id, version, company_id, action, changed, state, folder, tags, key, digest, signed, invalid, trashed,
  reverted_from, via, actor_id, actor_name, at`;
// What a change is told by, and nothing past `data`: in SQLite's record the columns after it are
// read by walking the overflow pages of the document a later write put there (40 µs a write).
const LAST_VERSION = `SELECT version, digest, state, folder, tags, key, trashed FROM entry_versions
  WHERE company_id = ? AND entry_id = ? ORDER BY version DESC LIMIT 1`;
type LastVersion = Pick<VersionRow, 'version' | 'digest' | 'state' | 'folder' | 'tags' | 'key' | 'trashed'>;
const INSERT_VERSION = `INSERT INTO entry_versions (${VERSION_COLUMNS}, data) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL)`;
const LAST_TITLE_SQLITE = `SELECT json_extract(detail, '$.title') AS title FROM audit_log
  WHERE company_id = ? AND target_id = ? AND json_extract(detail, '$.title') IS NOT NULL ORDER BY seq DESC LIMIT 1`;
// The twin on PostgreSQL, where `detail` is JSON text read as jsonb.
const LAST_TITLE_PG = `SELECT detail::jsonb ->> 'title' AS title FROM audit_log
  WHERE company_id = ? AND target_id = ? AND detail::jsonb ->> 'title' IS NOT NULL ORDER BY seq DESC LIMIT 1`;

// The same look-ups for many entries of a company at once (EntriesAhead), the ids as one JSON array.
const idIn = (column: string, postgres: boolean) =>
  postgres ? `${column} IN (SELECT jsonb_array_elements_text(?::jsonb))` : `${column} IN (SELECT value FROM json_each(?))`;
const ENTRY_STATES = (postgres: boolean) => `SELECT ${ENTRY_STATE_COLUMNS} FROM entries WHERE company_id = ? AND ${idIn('id', postgres)}`;
const VERSIONED = (postgres: boolean) => `SELECT DISTINCT entry_id FROM entry_versions WHERE company_id = ? AND ${idIn('entry_id', postgres)}`;
const JOBS_OPEN = (postgres: boolean) =>
  `SELECT DISTINCT silo_entry_id AS entry_id FROM jobs WHERE company_id = ? AND ${idIn('silo_entry_id', postgres)} AND completed_at IS NULL`;
const AHEAD_SQL = {
  sqlite: { states: ENTRY_STATES(false), versioned: VERSIONED(false), jobs: JOBS_OPEN(false) },
  postgres: { states: ENTRY_STATES(true), versioned: VERSIONED(true), jobs: JOBS_OPEN(true) },
};

/**
 * What keeping the versions of many entries at once reads of them, read for all of
 * them together (record-keeping.ts: an import's slice puts a thousand on record as its
 * transaction ends): each entry's row as it stands, which of them have a version stored
 * (for the others there is no last version to compare with), and, only when a write's
 * actor is asked for it, which have a job open. Read before any of them is kept: keeping
 * one writes its version and its row of the log, never an entry or a job, and never
 * another entry's version, so what was read still holds when each is kept.
 */
export class EntriesAhead {
  readonly #db: Db;
  readonly #ids = new Map<CompanyKey, string[]>();
  readonly #covered = new Set<string>();
  readonly #states = new Map<string, EntryState>();
  readonly #versioned = new Set<string>();
  readonly #jobs = new Map<string, Promise<Set<string>>>();

  private constructor(db: Db, entries: Array<{ companyKey: CompanyKey; entryId: string }>) {
    this.#db = db;
    for (const { companyKey, entryId } of entries) {
      const ids = this.#ids.get(companyKey) ?? [];
      ids.push(entryId);
      this.#ids.set(companyKey, ids);
      this.#covered.add(aheadKey(companyKey, entryId));
    }
  }

  /** The look-ahead for these entries (their versions to keep), or undefined for one alone: its own look-ups cost no more. */
  static async of(db: Db, entries: Array<{ companyKey: CompanyKey; entryId: string }>): Promise<EntriesAhead | undefined> {
    if (entries.length < 2) return undefined;
    const ahead = new EntriesAhead(db, entries);
    const sql = AHEAD_SQL[db.dialect];
    for (const [companyKey, ids] of ahead.#ids) {
      const list = JSON.stringify(ids);
      for (const row of await db.sql<EntryState>(sql.states, [companyKey, list])) ahead.#states.set(aheadKey(companyKey, row.id), row);
      for (const row of await db.sql<{ entry_id: string }>(sql.versioned, [companyKey, list])) ahead.#versioned.add(aheadKey(companyKey, row.entry_id));
    }
    return ahead;
  }

  /** Whether the entry is one of those read ahead. */
  covers(companyKey: CompanyKey, entryId: string): boolean {
    return this.#covered.has(aheadKey(companyKey, entryId));
  }

  state(companyKey: CompanyKey, entryId: string): EntryState | undefined {
    return this.#states.get(aheadKey(companyKey, entryId));
  }

  hasVersions(companyKey: CompanyKey, entryId: string): boolean {
    return this.#versioned.has(aheadKey(companyKey, entryId));
  }

  /** Whether a job of the company may be open on the entry (read for all the company's entries the first time it is asked). */
  async jobMayBeOpen(companyKey: CompanyKey, entryId: string): Promise<boolean> {
    let open = this.#jobs.get(companyKey);
    if (!open) {
      const ids = JSON.stringify(this.#ids.get(companyKey) ?? []);
      open = this.#db.sql<{ entry_id: string }>(AHEAD_SQL[this.#db.dialect].jobs, [companyKey, ids]).then((rows) => new Set(rows.map((r) => r.entry_id)));
      this.#jobs.set(companyKey, open);
    }
    return (await open).has(entryId);
  }
}

const aheadKey = (companyKey: CompanyKey, entryId: string) => `${companyKey}\u0000${entryId}`;

/** What the keeping of one batch of records shares (record-keeping.ts): its look-ahead, and what its appends to the log share. */
export interface KeepBatch {
  ahead: EntriesAhead | undefined;
  audit: AuditBatch;
}

/**
 * The entries columns a version is told by (changesBetween): a write that sets none of
 * them makes no version, and can say so (outsideHistory, audit-actor.ts).
 */
export const HISTORY_COLUMNS: ReadonlySet<string> = new Set(['digest_val', 'state', 'folder', 'tags', 'key', 'trashed_at']);

/** What a change touched, in the order a person reads it. */
function changesBetween(last: LastVersion, now: EntryState): string[] {
  const changed: string[] = [];
  if (last.digest !== now.digest_val) changed.push('document');
  if (last.state !== now.state) changed.push('state');
  if (last.folder !== now.folder) changed.push('folder');
  if (last.tags !== now.tags) changed.push('tags');
  if ((last.key ?? null) !== (now.key ?? null)) changed.push('key');
  if ((last.trashed === 1) !== (now.trashed_at !== null)) changed.push('trash');
  return changed;
}

function actionOf(hint: string | undefined, last: LastVersion | undefined, now: EntryState): { action: string; revertedFrom: number | null } {
  if (hint?.startsWith('reverted:')) return { action: 'reverted', revertedFrom: Number(hint.slice('reverted:'.length)) };
  if (!last) return { action: 'created', revertedFrom: null };
  const wasTrashed = last.trashed === 1;
  const isTrashed = now.trashed_at !== null;
  if (!wasTrashed && isTrashed) return { action: 'trashed', revertedFrom: null };
  if (wasTrashed && !isTrashed) return { action: 'restored', revertedFrom: null };
  return { action: 'changed', revertedFrom: null };
}

const titleOf = (snippet: string): string => {
  try {
    return String(snippetFromStored(snippet).title ?? '').slice(0, 200);
  } catch {
    return '';
  }
};

/**
 * Keeps the version an entry's write just made, with who made it and what changed,
 * and puts it in the audit log: called for every entry change (record-keeping.ts), in
 * the write's own transaction, whichever path wrote it (a POST, an import, a PATCH,
 * a workflow step, sync). The document the write replaced was already kept by the
 * `entries_keep_superseded` trigger, in the same statement. A write that changed
 * nothing history tracks (a replay) keeps nothing. `keptInside`: a scope inside the
 * writing one put the entry on record already (WrittenRecord.keptInside).
 */
export async function keepEntryVersion(
  db: Db,
  entryId: string,
  companyKey: CompanyKey,
  origin: string | null,
  deleted: boolean,
  keptInside = false,
  batch?: KeepBatch,
): Promise<void> {
  const hint = currentAction(db);
  if (deleted) {
    const actor = await currentActor(db, { origin });
    // The entry is gone: what it was called is in the log's last word about it.
    const last = await db.sqlFirst<{ title: string | null }>(db.dialect === 'postgres' ? LAST_TITLE_PG : LAST_TITLE_SQLITE, [companyKey, entryId]);
    const detail = last?.title ? { title: last.title } : {};
    const fact = { company_id: companyKey, action: `entry.${hint === 'purged' ? 'purged' : 'deleted'}`, target_kind: 'entry', target_id: entryId, detail };
    await appendAudit(db, actor, fact, batch?.audit);
    return;
  }
  const ahead = batch?.ahead?.covers(companyKey, entryId) ? batch.ahead : undefined;
  const now = ahead ? ahead.state(companyKey, entryId) : await db.sqlFirst<EntryState>(ENTRY_STATE, [companyKey, entryId]);
  if (!now) return;
  const last = ahead && !ahead.hasVersions(companyKey, entryId) ? undefined : await db.sqlFirst<LastVersion>(LAST_VERSION, [companyKey, entryId]);
  // No version stored and the creation on record: the first version is implied, and nothing it records changed since
  // (a change would have stored it, implied-created-version.ts). Only a scope inside this one can have put it there.
  if (!last && keptInside && (await creationOf(db, companyKey, entryId))) return;
  const changed = last ? changesBetween(last, now) : CREATED_CHANGED;
  if (last && changed.length === 0) return;
  const { action, revertedFrom } = actionOf(hint, last, now);
  const actor = await currentActor(db, { origin, companyKey, entryId, ...(ahead ? { jobMayBeOpen: () => ahead.jobMayBeOpen(companyKey, entryId) } : {}) });
  // A version number is the entry's `version` (what If-Match names); one that did not move still gets a row of its own.
  const version = last && now.version <= last.version ? last.version + 1 : now.version;
  // A new entry's first version is implied by the entry and the log's row below, and stored once it changes (implied-created-version.ts).
  if (last) await db.sqlRun(INSERT_VERSION, [
    entryId, version, now.company_id, action, JSON.stringify(changed), now.state, now.folder, now.tags, now.key, now.digest_val,
    now.signed, now.invalid, now.trashed_at !== null ? 1 : 0, revertedFrom, actor.via, actor.id, actor.name, now.updated_at,
  ]);
  await appendAudit(db, actor, {
    company_id: now.company_id,
    action: `entry.${action}`,
    target_kind: 'entry',
    target_id: entryId,
    // A creation changed everything history records, and is mostly version 1: the log says so when it is read
    // (auditView), and keeps 61 bytes less of every entry.
    detail: {
      ...(action === 'created' && version === 1 ? {} : { version: String(version) }),
      ...(action === 'created' ? {} : { changed }),
      title: titleOf(now.snippet),
      ...(revertedFrom !== null ? { reverted_from: String(revertedFrom) } : {}),
    },
  }, batch?.audit);
}
