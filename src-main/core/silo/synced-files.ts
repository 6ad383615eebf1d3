import type { Ctx } from '../api/handler.ts';
import { nowIso } from '../clock.ts';
import { currentActor } from './audit-actor.ts';
import type { AttachmentRow } from './entry-view.ts';
import { forgetTrashedFile, keepFileInTrash } from './trash-files.ts';

/** A file as another instance holds it (sync's attachment record, already checked there). */
export interface SyncedFile {
  name: string;
  desc: string;
  mime: string;
  meta: Record<string, unknown>;
  hash: string;
  size: number;
  created_at: string;
}

const FIND = 'SELECT * FROM attachments WHERE company_id = ? AND entry_id = ? AND id = ?';
const REMOVE = 'DELETE FROM attachments WHERE company_id = ? AND entry_id = ? AND id = ?';
const BUMP_ENTRY = 'UPDATE entries SET version = version + 1, updated_at = ? WHERE company_id = ? AND id = ?';

/**
 * Puts a file as another instance has it in place of the one here, or removes it
 * (null). Attachments have no versions of their own: another state replaces the row,
 * and the losing one is kept by the conflict that decided it. A file removed there
 * (their trash) is kept in this trash too, never simply gone; one restored there
 * leaves this trash. Answers the row it replaced or removed. In the caller's
 * transaction (sync's, whose origin is the instance the file came from).
 */
export async function replaceSyncedFile(ctx: Ctx, entryId: string, fileId: string, next: SyncedFile | null): Promise<AttachmentRow | undefined> {
  const { db } = ctx.service;
  const companyKey = ctx.caller.companyKey;
  const row = await db.sqlFirst<AttachmentRow>(FIND, [companyKey, entryId, fileId]);
  if (!row && next === null) return undefined;
  if (row) {
    if (next === null) await keepFileInTrash(db, row, await currentActor(db, { companyKey, entryId }));
    await db.sqlRun(REMOVE, [companyKey, entryId, fileId]);
  }
  if (next !== null) {
    await forgetTrashedFile(db, companyKey, entryId, fileId, next.hash);
    await db.run(
      db.q.insertInto('attachments').values({
        entry_id: entryId,
        id: fileId,
        company_id: companyKey,
        name: next.name,
        desc: next.desc,
        mime: next.mime.toLowerCase(),
        hash: next.hash,
        size: next.size,
        meta: JSON.stringify(next.meta),
        created_at: new Date(next.created_at).toISOString(),
      }),
    );
  }
  await db.sqlRun(BUMP_ENTRY, [nowIso(), companyKey, entryId]);
  return row;
}
