import { conflict, notFound } from '../api/errors.ts';
import { keysetPage } from '../api/keyset-page.ts';
import type { Ctx } from '../api/handler.ts';
import type { Db } from '../db/engine.ts';
import { LOCAL } from '../db/write-scopes.ts';
import { asAction, type Actor } from './audit-actor.ts';
import { deriveCheckedDocument, toEnvelope, type DerivedDocument } from './document.ts';
import { documentOfRow, partsAhead } from './row-document.ts';
import { digestInTurns } from '../gobl/canonical-in-turns.ts';
import { withKnownDigest } from '../gobl/known-digest.ts';
import { isLargeDocument } from '../gobl/engine-thread/index.ts';
import { parseStoredJson } from '../api/json-in-turns.ts';
import { entryViews, type EntryView } from './entry-view.ts';
import { findAnyEntryRow, type RowLock } from './entries.ts';
import { writeEntryChange } from './patch.ts';
import { impliedCreatedVersion } from './implied-created-version.ts';
import { VERSION_COLUMNS, type VersionRow } from './version-keeping.ts';
import { documentText, type StoredDocument } from './packed-document.ts';
import type { CompanyKey } from '../access/company-key.ts';

/** A version's document: the first one kept at or after it; none kept means the entry's own. */
const DOCUMENT_OF = 'SELECT data FROM entry_versions WHERE company_id = ? AND entry_id = ? AND version >= ? AND data IS NOT NULL ORDER BY version LIMIT 1';

/** Forgets an entry's versions: only its purge does this. */
export async function dropVersions(db: Db, companyKey: CompanyKey, entryId: string): Promise<void> {
  await db.sqlRun('DELETE FROM entry_versions WHERE company_id = ? AND entry_id = ?', [companyKey, entryId]);
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
async function entryOfCompany(ctx: Ctx, id: string, lock?: RowLock) {
  const row = await findAnyEntryRow(ctx, id, lock);
  if (!row) throw notFound(`entry ${id}`);
  return row;
}

/** The entry's versions, newest first, a keyset page at a time. */
export async function listVersions(ctx: Ctx, id: string, q: { cursor?: string; limit: number }) {
  const { db, cursorSecret } = ctx.service;
  const entry = await entryOfCompany(ctx, id);
  const scope = JSON.stringify(['versions', ctx.caller.companyKey, id]);
  const { rows, nextCursor } = await keysetPage<VersionRow>({
    secret: cursorSecret,
    scope,
    cursor: q.cursor,
    limit: q.limit,
    shape: ['int'],
    key: (row) => [row.version],
    fetch: (after, take) =>
      db.sql<VersionRow>(
        `SELECT ${VERSION_COLUMNS} FROM entry_versions WHERE company_id = ? AND entry_id = ? AND version < ? ORDER BY version DESC LIMIT ?`,
        [entry.company_id, id, after ? after[0] : Number.MAX_SAFE_INTEGER, take],
      ),
  });
  // None stored: the entry never changed, and its first version is implied (implied-created-version.ts).
  const implied = rows.length === 0 && q.cursor === undefined ? await impliedCreatedVersion(db, entry) : undefined;
  return {
    entry_id: id,
    version: String(entry.version),
    list: (implied ? [implied] : rows).map(versionView),
    limit: q.limit,
    ...(nextCursor ? { next_cursor: nextCursor } : {}),
  };
}

async function versionRow(ctx: Ctx, id: string, version: number): Promise<VersionRow> {
  const { db } = ctx.service;
  const row =
    (await db.sqlFirst<VersionRow>(`SELECT ${VERSION_COLUMNS} FROM entry_versions WHERE company_id = ? AND entry_id = ? AND version = ?`, [
      ctx.caller.companyKey,
      id,
      version,
    ])) ?? (await impliedCreatedVersion(db, await entryOfCompany(ctx, id)));
  if (!row || row.version !== version) throw notFound(`version ${version} of entry ${id}`);
  return row;
}

/** The envelope as it was at a version (kept, or the entry's own when no later version replaced it). */
export async function documentAt(ctx: Ctx, id: string, version: number): Promise<Record<string, unknown>> {
  const { db } = ctx.service;
  const kept = await db.sqlFirst<{ data: StoredDocument }>(DOCUMENT_OF, [ctx.caller.companyKey, id, version]);
  // A kept version is packed for its entry, as the entry row was when it held it; a large one is parsed a piece at a time.
  return (await parseStoredJson(documentText(kept?.data ?? (await entryOfCompany(ctx, id)).data, id))) as Record<string, unknown>;
}

/** One version: its envelope (the hosted SiloEntryData, `{version, data}`) with its labels and who made it. */
export async function getVersion(ctx: Ctx, id: string, version: number) {
  await entryOfCompany(ctx, id);
  const row = await versionRow(ctx, id, version);
  return { ...versionView(row), data: await documentAt(ctx, id, version) };
}

/** The version before `version` that history holds, if any. */
export async function previousVersion(ctx: Ctx, id: string, version: number): Promise<number | undefined> {
  const row = await ctx.service.db.sqlFirst<{ version: number }>(
    'SELECT version FROM entry_versions WHERE company_id = ? AND entry_id = ? AND version < ? ORDER BY version DESC LIMIT 1',
    [ctx.caller.companyKey, id, version],
  );
  return row?.version;
}

export async function versionWithDocument(ctx: Ctx, id: string, version: number) {
  return { row: await versionRow(ctx, id, version), data: await documentAt(ctx, id, version) };
}

/**
 * Makes a past version the entry's current one, as a new version: history is never
 * rewritten. The document comes back as it was (checked by GOBL as a synced one is,
 * never rebuilt), with the version's state, folder and tags. A signed entry keeps its
 * document: only a version with the same document (its labels) can be restored.
 * Restoring what the entry already is changes nothing. One transaction from reading
 * the entry to the write: a change arriving meanwhile waits for it, rather than
 * making this one stale (a 409).
 */
export async function restoreVersion(ctx: Ctx, id: string, version: number): Promise<EntryView> {
  const { db } = ctx.service;
  // What the write needs of a large document is worked out before the transaction, as far as the
  // entry as it stands asks for it (a version's document never changes): GOBL's check of the
  // version's document, on its own thread and with its digest worked out in turns; or, for the
  // same document with other tags, what its search row is made of. Inside, the database would
  // wait on that work; a restore that will be refused (a signed entry) does none of it.
  const target = await versionRow(ctx, id, version);
  const before = await entryOfCompany(ctx, id);
  const tags = JSON.parse(target.tags) as string[];
  const anotherDocument = target.digest !== before.digest_val;
  const data = anotherDocument && before.signed !== 1 && before.trashed_at === null ? await documentAt(ctx, id, version) : undefined;
  const ahead = data !== undefined && isLargeDocument(data) ? await checkedVersion(id, data) : undefined;
  const parts = anotherDocument ? undefined : await partsAhead(before, { tags });
  const updated = await db.tx(async () => {
    // Locked on PostgreSQL until the end: a change arriving meanwhile waits for this one there too.
    const row = await entryOfCompany(ctx, id, 'for-update');
    if (row.trashed_at !== null) throw conflict(`entry ${id} is in the trash; restore it from there first`);
    const sameDocument = target.digest === row.digest_val;
    if (!sameDocument && row.signed === 1) throw conflict(`entry ${id} is signed; its document can no longer change (version ${version} holds another one)`);
    if (sameDocument && target.state === row.state && target.folder === row.folder && target.tags === row.tags) return row;
    const doc: DerivedDocument = sameDocument
      ? documentOfRow(row, parts)
      : (ahead ?? (await checkedVersion(id, data ?? (await documentAt(ctx, id, version)))));
    return asAction(db, `reverted:${version}`, () => writeEntryChange(ctx, row, doc, { state: target.state, folder: target.folder, tags }));
  }, { origin: db.origin ?? LOCAL });
  return (await entryViews(db, [updated], ctx))[0];
}

/** A version's document as entry `id` takes it back: checked by GOBL as it stands, a large one with its digest worked out in turns. */
async function checkedVersion(id: string, data: Record<string, unknown>): Promise<DerivedDocument> {
  const derive = () => deriveCheckedDocument(toEnvelope(id, data).envelope);
  const { doc } = data;
  return typeof doc === 'object' && doc !== null && isLargeDocument(doc) ? withKnownDigest(doc, await digestInTurns(doc), derive) : derive();
}
