import type { Db } from '../db/engine.ts';
import { currentAction, currentActor } from './audit-actor.ts';
import { appendAudit } from './audit-log.ts';
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
const ENTRY_STATE = `SELECT id, company_id, version, state, folder, tags, key, digest_val, signed, invalid, trashed_at, snippet, updated_at
  FROM entries WHERE company_id = ? AND id = ?`;
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
export async function keepEntryVersion(db: Db, entryId: string, companyKey: CompanyKey, origin: string | null, deleted: boolean, keptInside = false): Promise<void> {
  const hint = currentAction(db);
  if (deleted) {
    const actor = await currentActor(db, { origin });
    // The entry is gone: what it was called is in the log's last word about it.
    const last = await db.sqlFirst<{ title: string | null }>(db.dialect === 'postgres' ? LAST_TITLE_PG : LAST_TITLE_SQLITE, [companyKey, entryId]);
    const detail = last?.title ? { title: last.title } : {};
    await appendAudit(db, actor, { company_id: companyKey, action: `entry.${hint === 'purged' ? 'purged' : 'deleted'}`, target_kind: 'entry', target_id: entryId, detail });
    return;
  }
  const now = await db.sqlFirst<EntryState>(ENTRY_STATE, [companyKey, entryId]);
  if (!now) return;
  const last = await db.sqlFirst<LastVersion>(LAST_VERSION, [companyKey, entryId]);
  // No version stored and the creation on record: the first version is implied, and nothing it records changed since
  // (a change would have stored it, implied-created-version.ts). Only a scope inside this one can have put it there.
  if (!last && keptInside && (await creationOf(db, companyKey, entryId))) return;
  const changed = last ? changesBetween(last, now) : CREATED_CHANGED;
  if (last && changed.length === 0) return;
  const { action, revertedFrom } = actionOf(hint, last, now);
  const actor = await currentActor(db, { origin, companyKey, entryId });
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
    // A creation changed everything history records: the log says so when it is read (auditView), and keeps 47 bytes less of every entry.
    detail: {
      version: String(version),
      ...(action === 'created' ? {} : { changed }),
      title: titleOf(now.snippet),
      ...(revertedFrom !== null ? { reverted_from: String(revertedFrom) } : {}),
    },
  });
}
