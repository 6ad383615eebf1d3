import { newUuidV7 as uuidv7 } from '../new-uuid.ts';
import { conflict, notFound } from '../api/errors.ts';
import type { Ctx } from '../api/handler.ts';
import { nowIso } from '../clock.ts';
import type { Db } from '../db/engine.ts';
import { LOCAL } from '../db/write-scopes.ts';
import { asAction, currentActor, type Actor } from './audit-actor.ts';
import { attachmentView, type AttachmentRow } from './entry-view.ts';
import { findAnyEntryRow, requireEntryRow } from './entries.ts';
import { trashItem } from './trash.ts';
import type { CompanyKey } from '../access/company-key.ts';

// "desc" quoted: a reserved word on PostgreSQL (SQLite takes it either way).
const INSERT_TRASHED = `INSERT INTO trash_files (trash_id, company_id, entry_id, id, name, "desc", mime, hash, size, meta, created_at, row,
  trashed_at, via, actor_id, actor_name) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;
// Every statement names the company: an entry id is only unique within its company (issue 12).
const BUMP_ENTRY = 'UPDATE entries SET version = version + 1, updated_at = ? WHERE company_id = ? AND id = ?';

/**
 * Keeps an attachment row in the trash before it leaves `attachments` (the caller
 * deletes it, in the same transaction). Its bytes stay in the content store. Sync
 * calls this too when a pulled change removes a file, so a file trashed on one
 * instance lands in the trash of the others, not in nothing.
 */
export async function keepFileInTrash(db: Db, row: AttachmentRow, actor: Actor): Promise<string> {
  const trashId = uuidv7();
  await db.sqlRun(INSERT_TRASHED, [
    trashId, row.company_id, row.entry_id, row.id, row.name, row.desc, row.mime, row.hash, row.size, row.meta, row.created_at,
    JSON.stringify(row), nowIso(), actor.via, actor.id, actor.name,
  ]);
  return trashId;
}

/** A trashed file came back on another instance (the same bytes under the same id): it is not waiting here any more. */
export async function forgetTrashedFile(db: Db, companyKey: CompanyKey, entryId: string, fileId: string, hash: string): Promise<void> {
  await db.sqlRun('DELETE FROM trash_files WHERE company_id = ? AND entry_id = ? AND id = ? AND hash = ?', [companyKey, entryId, fileId, hash]);
}

// The columns `attachments` has now, on each engine.
const ATTACHMENT_COLUMNS_SQLITE = "SELECT name FROM pragma_table_info('attachments')";
const ATTACHMENT_COLUMNS_PG = `SELECT column_name AS name FROM information_schema.columns
  WHERE table_schema = current_schema() AND table_name = 'attachments' ORDER BY ordinal_position`;

/** Puts an attachment row back as it was kept: every column the table has (a column added since takes its default). */
async function insertAttachmentRow(db: Db, row: Record<string, unknown>): Promise<void> {
  const columns = (await db.sql<{ name: string }>(db.dialect === 'postgres' ? ATTACHMENT_COLUMNS_PG : ATTACHMENT_COLUMNS_SQLITE))
    .map((c) => c.name)
    .filter((name) => Object.hasOwn(row, name));
  await db.sqlRun(
    `INSERT INTO attachments (${columns.map((c) => `"${c}"`).join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`,
    columns.map((c) => row[c] as unknown),
  );
}

/**
 * Moves one file of an entry to the trash: it leaves the entry (views, downloads,
 * exports) and the change syncs as the file's removal, which the other instances
 * also keep in their trash. Restorable until the retention purges it. The entry is
 * looked up in the transaction that moves the file: it cannot go to the trash in between.
 */
export async function trashFile(ctx: Ctx, entryId: string, fileId: string) {
  const { db } = ctx.service;
  const company = ctx.caller.companyKey;
  const trashId = await db.tx(async () => {
    // Locked on PostgreSQL until the end, as the entry's trashing locks it: the two take turns.
    await requireEntryRow(ctx, entryId, 'for-update');
    const row = await db.sqlFirst<AttachmentRow>('SELECT * FROM attachments WHERE company_id = ? AND entry_id = ? AND id = ?', [company, entryId, fileId]);
    if (!row) throw notFound(`attachment ${fileId} of entry ${entryId}`);
    const id = await keepFileInTrash(db, row, await currentActor(db, { caller: ctx.caller, companyKey: company, entryId }));
    // The file's removal is recorded by the table's trigger, and goes on record as trashed (record-keeping.ts).
    await asAction(db, 'trashed', () => db.sqlRun('DELETE FROM attachments WHERE company_id = ? AND entry_id = ? AND id = ?', [company, entryId, fileId]));
    await db.sqlRun(BUMP_ENTRY, [nowIso(), company, entryId]);
    return id;
  }, { origin: LOCAL });
  return trashItem(ctx, 'file', trashId);
}

interface TrashedFileRow extends AttachmentRow {
  trash_id: string;
  row: string;
}

/**
 * Puts the file most recently trashed under this id back on its entry, as it was.
 * The entry must be out of the trash, and the id free (another file put there since is
 * a 409: nothing is overwritten). The entry is looked up in the transaction that puts
 * the file back: it cannot go to the trash in between.
 */
export async function restoreFile(ctx: Ctx, entryId: string, fileId: string) {
  const { db, blobs } = ctx.service;
  const company = ctx.caller.companyKey;
  return db.tx(async () => {
    const entry = await findAnyEntryRow(ctx, entryId, 'for-update');
    if (!entry) throw notFound(`entry ${entryId}`);
    if (entry.trashed_at !== null) throw conflict(`entry ${entryId} is in the trash; restore it first`);
    const row = await db.sqlFirst<TrashedFileRow>(
      'SELECT * FROM trash_files WHERE company_id = ? AND entry_id = ? AND id = ? ORDER BY trashed_at DESC, trash_id DESC LIMIT 1',
      [company, entryId, fileId],
    );
    if (!row) throw notFound(`attachment ${fileId} of entry ${entryId} in the trash`);
    if (await db.sqlFirst('SELECT 1 FROM attachments WHERE company_id = ? AND entry_id = ? AND id = ?', [company, entryId, fileId])) {
      throw conflict(`entry ${entryId} has another file ${fileId} now; the trashed one is kept`);
    }
    if (!(await blobs.holds(row.hash))) throw conflict(`the bytes of attachment ${fileId} are gone from this data folder`);
    // The row goes back to the company whose trash it was kept in, whatever the kept copy says.
    await asAction(db, 'restored', () => insertAttachmentRow(db, { ...(JSON.parse(row.row) as Record<string, unknown>), company_id: company }));
    const restored = (await db.sqlFirst<AttachmentRow>('SELECT * FROM attachments WHERE company_id = ? AND entry_id = ? AND id = ?', [company, entryId, fileId]))!;
    await db.sqlRun('DELETE FROM trash_files WHERE trash_id = ?', [row.trash_id]);
    await db.sqlRun(BUMP_ENTRY, [nowIso(), company, entryId]);
    return attachmentView(restored);
  }, { origin: LOCAL });
}
