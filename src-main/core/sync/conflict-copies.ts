import { newUuidV7 as uuidv7 } from '../new-uuid.ts';
import type { Ctx } from '../api/handler.ts';
import type { SyncRecordOf } from '../api/contract/sync.ts';
import { nowIso } from '../clock.ts';
import { commitEntry, findAnyEntryRow, prepareEntry, type PreparedEntry } from '../silo/entries.ts';
import { isLargeDocument } from '../gobl/engine-thread/index.ts';
import type { EntryRow } from '../silo/entry-view.ts';
import { putMeta } from '../silo/meta.ts';
import { attachmentKind, attachmentRecordOf } from './records/attachment.ts';
import { entryKind, entryRecordInTurns, entryRecordOf } from './records/entry.ts';
import { metaKind } from './records/meta.ts';

type EntryRecord = SyncRecordOf['entry'];

/** Where the losing document of an entry conflict waits, as an entry of its own. */
export const CONFLICTS_FOLDER = 'conflicts';
/** Meta on a copy that links it to the entry it is a version of. */
export const CONFLICT_META_KEY = 'sync-conflict';
const LINK_SRC = 'sync';

/** What a copy's link meta says: which conflict, which entry, and whose version the copy holds. */
export interface CopyLink {
  conflict_id: string;
  entry_id: string;
  local_version: number;
  remote_version: number;
  remote_origin: string;
  /** `mine`: this instance's losing version; `remote`: the remote's, set aside by "keep mine" */
  holds: 'mine' | 'remote';
  resolution?: 'remote' | 'mine';
}

/**
 * A document as a copy holds it: under the copy's own id, and without the
 * original's signatures (they sign the original's uuid, so on the copy they would
 * not verify anywhere). The original, signed, is kept whole in the conflict row.
 */
function asCopyData(data: Record<string, unknown>, copyId: string): Record<string, unknown> {
  const { sigs: _signedTheOriginal, ...rest } = data;
  return { ...rest, head: { ...(data.head as Record<string, unknown>), uuid: copyId } };
}

/** What creating a copy of `version` under `copyId`, in `folder`, asks for. */
function copyInput(version: EntryRecord, copyId: string, folder: string) {
  return { data: asCopyData(version.data, copyId), folder, tags: version.tags, state: version.state, allow_invalid: true };
}

/**
 * A copy of `version` in `folder` (under `copyId`: a copy that exists and comes to hold it), prepared
 * for makeCopy or trashCopy ahead of the transaction that writes it, when GOBL checks its document
 * off the event loop: half a second for 13,000 lines, during which that transaction would hold the
 * database. Undefined for a small one, checked in the write.
 */
export async function copyAhead(ctx: Ctx, version: EntryRecord, folder: string, copyId = uuidv7()): Promise<PreparedEntry | undefined> {
  if (!isLargeDocument(version.data)) return undefined;
  return prepareEntry(copyId, copyInput(version, copyId, folder), ctx.service.db.dialect);
}

/**
 * A new entry holding `version` of entry `link.entry_id`, in `folder`, linked by its
 * meta. It is an ordinary entry: it syncs, is searched and edited like any other.
 * `childrenFrom`: an entry whose files (the same stored bytes) and meta come along.
 * `ahead`: the copy as copyAhead prepared it, of this very version in this folder.
 */
export async function makeCopy(ctx: Ctx, version: EntryRecord, folder: string, link: CopyLink, childrenFrom?: string, ahead?: PreparedEntry): Promise<string> {
  const copyId = ahead?.id ?? uuidv7();
  await commitEntry(ctx, ahead ?? (await prepareEntry(copyId, copyInput(version, copyId, folder))));
  if (childrenFrom) await copyChildren(ctx, childrenFrom, copyId);
  await writeLink(ctx, copyId, link);
  return copyId;
}

/**
 * The copy now holds `version` (or keeps what it holds, without one) and goes to the
 * trash, its link saying so: a version a person decided against is kept, restorable
 * until the retention purges it, never deleted on the spot. Restored, it returns to
 * the folder of the entry it is a version of, not to the conflicts. `ahead`: the copy
 * as copyAhead prepared it under its id, of this very version.
 */
export async function trashCopy(ctx: Ctx, copy: EntryRow, link: CopyLink, version?: EntryRecord, ahead?: PreparedEntry): Promise<void> {
  // The document held is written back as it is, or not at all: read as text, it is parsed only when kept.
  const held = version ? entryRecordOf(copy, true) : await entryRecordInTurns(copy);
  const folder = version?.folder ?? (await findAnyEntryRow(ctx, link.entry_id))?.folder ?? held.folder;
  const next: EntryRecord = version
    ? { ...held, data: asCopyData(version.data, copy.id), tags: version.tags, state: version.state, folder, trashed_at: nowIso() }
    : { ...held, folder, trashed_at: nowIso() };
  // The link first: nothing is written onto an entry once it is in the trash.
  await writeLink(ctx, copy.id, link);
  await entryKind.apply(ctx, copy.id, next, ahead);
}

/**
 * A new copy holding `version` (with `childrenFrom`'s files and meta), straight into the trash.
 * `ahead`: the copy as copyAhead prepared it, of this very version in its own folder.
 */
export async function trashNewCopy(ctx: Ctx, version: EntryRecord, link: CopyLink, childrenFrom?: string, ahead?: PreparedEntry): Promise<string> {
  const copyId = await makeCopy(ctx, version, version.folder, link, childrenFrom, ahead);
  await trashCopy(ctx, (await findAnyEntryRow(ctx, copyId))!, link);
  return copyId;
}

async function writeLink(ctx: Ctx, copyId: string, link: CopyLink): Promise<void> {
  await putMeta(ctx, copyId, CONFLICT_META_KEY, { src: LINK_SRC, ref: link.entry_id, value: { ...link }, shared: false, link_scope: '', link_url: '' });
}

const isLink = (meta: { src: string; key: string }) => meta.src === LINK_SRC && meta.key === CONFLICT_META_KEY;

/** An entry's files and meta (not its own link) onto another entry, each as a change of that entry. */
export async function copyChildren(ctx: Ctx, fromId: string, toId: string): Promise<void> {
  const { db } = ctx.service;
  const companyKey = ctx.caller.companyKey;
  for (const file of await db.all(db.q.selectFrom('attachments').selectAll().where('company_id', '=', companyKey).where('entry_id', '=', fromId))) {
    await attachmentKind.apply(ctx, { entryId: toId, fileId: file.id }, { ...attachmentRecordOf(file), entry_id: toId });
  }
  for (const meta of await db.all(db.q.selectFrom('entry_meta').selectAll().where('company_id', '=', companyKey).where('entry_id', '=', fromId))) {
    if (isLink(meta)) continue;
    await metaKind.apply(ctx, { entryId: toId, src: meta.src, key: meta.key }, {
      entry_id: toId, src: meta.src, key: meta.key, ref: meta.ref, value: JSON.parse(meta.value), shared: meta.shared === 1,
      link_scope: meta.link_scope, link_url: meta.link_url, created_at: meta.created_at, updated_at: meta.updated_at,
    });
  }
}
