import { conflict, notFound } from '../api/errors.ts';
import { keysetPage } from '../api/keyset-page.ts';
import type { Ctx } from '../api/handler.ts';
import type { Store } from '../db/store.ts';
import { parseFaults } from '../gobl/fault.ts';
import { asAction, currentAction, currentActor, type Actor } from './audit-actor.ts';
import { appendAudit } from './audit-log.ts';
import { deriveDocument, toEnvelope, type DerivedDocument, type Envelope } from './document.ts';
import { entryViews, type EntryView } from './entry-view.ts';
import { findAnyEntryRow } from './entries.ts';
import { writeEntryChange } from './patch.ts';

/** What a version row holds (entry_versions); `data` only once a later version replaced its document. */
interface VersionRow {
  entry_id: string;
  version: number;
  company_id: string;
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
  company_id: string;
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
const VERSION_COLUMNS = `entry_id, version, company_id, action, changed, state, folder, tags, key, digest, signed, invalid, trashed,
  reverted_from, via, actor_id, actor_name, at`;
const LAST_VERSION = `SELECT ${VERSION_COLUMNS} FROM entry_versions WHERE company_id = ? AND entry_id = ? ORDER BY version DESC LIMIT 1`;
const INSERT_VERSION = `INSERT INTO entry_versions (${VERSION_COLUMNS}, data) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL)`;
const LAST_TITLE = `SELECT json_extract(detail, '$.title') AS title FROM audit_log
  WHERE company_id = ? AND target_id = ? AND json_extract(detail, '$.title') IS NOT NULL ORDER BY seq DESC LIMIT 1`;
/** A version's document: the first one kept at or after it; none kept means the entry's own. */
const DOCUMENT_OF = 'SELECT data FROM entry_versions WHERE company_id = ? AND entry_id = ? AND version >= ? AND data IS NOT NULL ORDER BY version LIMIT 1';

/** What a change touched, in the order a person reads it. */
function changesBetween(last: VersionRow, now: EntryState): string[] {
  const changed: string[] = [];
  if (last.digest !== now.digest_val) changed.push('document');
  if (last.state !== now.state) changed.push('state');
  if (last.folder !== now.folder) changed.push('folder');
  if (last.tags !== now.tags) changed.push('tags');
  if ((last.key ?? null) !== (now.key ?? null)) changed.push('key');
  if ((last.trashed === 1) !== (now.trashed_at !== null)) changed.push('trash');
  return changed;
}

function actionOf(hint: string | undefined, last: VersionRow | undefined, now: EntryState): { action: string; revertedFrom: number | null } {
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
    return String((JSON.parse(snippet) as Record<string, unknown>).title ?? '').slice(0, 200);
  } catch {
    return '';
  }
};

/**
 * Keeps the version an entry's write just made, with who made it and what changed,
 * and puts it in the audit log: called by the change log for every entry change, in
 * the write's own transaction, whichever path wrote it (a POST, an import, a PATCH,
 * a workflow step, sync). The document the write replaced was already kept by the
 * `entries_keep_superseded` trigger, in the same statement. A write that changed
 * nothing history tracks (a replay) keeps nothing.
 */
export function keepEntryVersion(store: Store, entryId: string, companyId: string, origin: string | null, deleted: boolean): void {
  const hint = currentAction(store);
  if (deleted) {
    const actor = currentActor(store, { origin });
    // The entry is gone: what it was called is in the log's last word about it.
    const last = store.statement(LAST_TITLE).get(companyId, entryId) as { title: string | null } | undefined;
    const detail = last?.title ? { title: last.title } : {};
    appendAudit(store, actor, { company_id: companyId, action: `entry.${hint === 'purged' ? 'purged' : 'deleted'}`, target_kind: 'entry', target_id: entryId, detail });
    return;
  }
  const now = store.statement(ENTRY_STATE).get(companyId, entryId) as EntryState | undefined;
  if (!now) return;
  const last = store.statement(LAST_VERSION).get(companyId, entryId) as VersionRow | undefined;
  const changed = last ? changesBetween(last, now) : ['document', 'state', 'folder', 'tags'];
  if (last && changed.length === 0) return;
  const { action, revertedFrom } = actionOf(hint, last, now);
  const actor = currentActor(store, { origin, companyId, entryId });
  // A version number is the entry's `version` (what If-Match names); one that did not move still gets a row of its own.
  const version = last && now.version <= last.version ? last.version + 1 : now.version;
  store.statement(INSERT_VERSION).run(
    entryId, version, now.company_id, action, JSON.stringify(changed), now.state, now.folder, now.tags, now.key, now.digest_val,
    now.signed, now.invalid, now.trashed_at !== null ? 1 : 0, revertedFrom, actor.via, actor.id, actor.name, now.updated_at,
  );
  appendAudit(store, actor, {
    company_id: now.company_id,
    action: `entry.${action}`,
    target_kind: 'entry',
    target_id: entryId,
    detail: { version: String(version), changed, title: titleOf(now.snippet), ...(revertedFrom !== null ? { reverted_from: String(revertedFrom) } : {}) },
  });
}

/** Forgets an entry's versions: only its purge does this. */
export function dropVersions(store: Store, companyId: string, entryId: string): void {
  store.statement('DELETE FROM entry_versions WHERE company_id = ? AND entry_id = ?').run(companyId, entryId);
}

const actorOf = (row: VersionRow): Actor => ({ via: row.via as Actor['via'], id: row.actor_id, name: row.actor_name });

export function versionView(row: VersionRow) {
  return {
    version: String(row.version),
    at: row.at,
    action: row.action,
    changed: JSON.parse(row.changed) as string[],
    state: row.state,
    folder: row.folder,
    tags: JSON.parse(row.tags) as string[],
    ...(row.key !== null ? { key: row.key } : {}),
    digest: { alg: 'sha256', val: row.digest },
    signed: row.signed === 1,
    invalid: row.invalid === 1,
    trashed: row.trashed === 1,
    ...(row.reverted_from !== null ? { reverted_from: String(row.reverted_from) } : {}),
    // The hosted service's names for who made a version.
    src: row.via,
    src_id: row.actor_id,
    actor: actorOf(row),
  };
}

/** An entry of the caller's company, in the trash or not: its history stays readable while it waits there. */
function entryOfCompany(ctx: Ctx, id: string) {
  const row = findAnyEntryRow(ctx, id);
  if (!row) throw notFound(`entry ${id}`);
  return row;
}

/** The entry's versions, newest first, a keyset page at a time. */
export function listVersions(ctx: Ctx, id: string, q: { cursor?: string; limit: number }) {
  const { store, cursorSecret } = ctx.service;
  const entry = entryOfCompany(ctx, id);
  const scope = JSON.stringify(['versions', ctx.caller.companyId, id]);
  const { rows, nextCursor } = keysetPage<VersionRow>({
    secret: cursorSecret,
    scope,
    cursor: q.cursor,
    limit: q.limit,
    shape: ['int'],
    key: (row) => [row.version],
    fetch: (after, take) =>
      store
        .statement(`SELECT ${VERSION_COLUMNS} FROM entry_versions WHERE company_id = ? AND entry_id = ? AND version < ? ORDER BY version DESC LIMIT ?`)
        .all(entry.company_id, id, after ? after[0] : Number.MAX_SAFE_INTEGER, take) as VersionRow[],
  });
  return {
    entry_id: id,
    version: String(entry.version),
    list: rows.map(versionView),
    limit: q.limit,
    ...(nextCursor ? { next_cursor: nextCursor } : {}),
  };
}

function versionRow(ctx: Ctx, id: string, version: number): VersionRow {
  const row = ctx.service.store
    .statement(`SELECT ${VERSION_COLUMNS} FROM entry_versions WHERE company_id = ? AND entry_id = ? AND version = ?`)
    .get(ctx.caller.companyId, id, version) as VersionRow | undefined;
  if (!row) throw notFound(`version ${version} of entry ${id}`);
  return row;
}

/** The envelope as it was at a version (kept, or the entry's own when no later version replaced it). */
export function documentAt(ctx: Ctx, id: string, version: number): Record<string, unknown> {
  const { store } = ctx.service;
  const kept = store.statement(DOCUMENT_OF).get(ctx.caller.companyId, id, version) as { data: string } | undefined;
  return JSON.parse(kept?.data ?? entryOfCompany(ctx, id).data) as Record<string, unknown>;
}

/** One version: its envelope (the hosted SiloEntryData, `{version, data}`) with its labels and who made it. */
export function getVersion(ctx: Ctx, id: string, version: number) {
  entryOfCompany(ctx, id);
  const row = versionRow(ctx, id, version);
  return { ...versionView(row), data: documentAt(ctx, id, version) };
}

/** The version before `version` that history holds, if any. */
export function previousVersion(ctx: Ctx, id: string, version: number): number | undefined {
  const row = ctx.service.store
    .statement('SELECT version FROM entry_versions WHERE company_id = ? AND entry_id = ? AND version < ? ORDER BY version DESC LIMIT 1')
    .get(ctx.caller.companyId, id, version) as { version: number } | undefined;
  return row?.version;
}

export function versionWithDocument(ctx: Ctx, id: string, version: number) {
  return { row: versionRow(ctx, id, version), data: documentAt(ctx, id, version) };
}

/**
 * Makes a past version the entry's current one, as a new version: history is never
 * rewritten. The document comes back as it was (checked by GOBL as a synced one is,
 * never rebuilt), with the version's state, folder and tags. A signed entry keeps its
 * document: only a version with the same document (its labels) can be restored.
 * Restoring what the entry already is changes nothing.
 */
export function restoreVersion(ctx: Ctx, id: string, version: number): EntryView {
  const { store } = ctx.service;
  const row = entryOfCompany(ctx, id);
  if (row.trashed_at !== null) throw conflict(`entry ${id} is in the trash; restore it from there first`);
  const { row: target, data } = versionWithDocument(ctx, id, version);
  const sameDocument = target.digest === row.digest_val;
  if (!sameDocument && row.signed === 1) throw conflict(`entry ${id} is signed; its document can no longer change (version ${version} holds another one)`);
  const tags = JSON.parse(target.tags) as string[];
  if (sameDocument && target.state === row.state && target.folder === row.folder && target.tags === row.tags) {
    return entryViews(store, [row], true)[0];
  }
  const doc: DerivedDocument = sameDocument
    ? deriveDocument(JSON.parse(row.data) as Envelope, { alg: row.digest_alg, val: row.digest_val }, parseFaults(row.faults))
    : deriveDocument(toEnvelope(id, data).envelope);
  const updated = asAction(store, `reverted:${version}`, () => writeEntryChange(ctx, row, doc, { state: target.state, folder: target.folder, tags }));
  return entryViews(store, [updated], true)[0];
}
