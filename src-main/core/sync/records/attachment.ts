import { statSync } from 'node:fs';
import { validationError } from '../../api/errors.ts';
import type { Ctx } from '../../api/handler.ts';
import { attachmentRecord, type SyncRecordOf } from '../../api/contract/sync.ts';
import { nowIso } from '../../clock.ts';
import { requireEntryRow } from '../../silo/entries.ts';
import type { AttachmentRow } from '../../silo/entry-view.ts';
import { unsafeDisplayNameReason } from '../../silo/file-name.ts';
import { MAX_ATTACHMENT_BYTES } from '../../silo/attachments.ts';
import { companyHolds, grantBlobs } from '../blobs.ts';
import { recordChange } from '../change-log.ts';
import { currentActor } from '../../silo/audit-actor.ts';
import { forgetTrashedFile, keepFileInTrash } from '../../silo/trash-files.ts';
import type { RecordKind } from './kind.ts';

type AttachmentRecord = SyncRecordOf['attachment'];

const ID = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}):([A-Za-z0-9][A-Za-z0-9._-]{0,127})$/;

/** An attachment's id is only unique within its entry: sync names it `entry-id:file-id`. */
export function splitAttachmentId(id: string): { entryId: string; fileId: string } | undefined {
  const m = ID.exec(id);
  return m ? { entryId: m[1], fileId: m[2] } : undefined;
}

export const attachmentKind: RecordKind<AttachmentRecord> = {
  kind: 'attachment',
  schema: attachmentRecord,
  validId: (id) => ID.test(id),
  parentOf: (id) => ({ kind: 'entry', id: splitAttachmentId(id)!.entryId }),
  read(ctx, id) {
    const row = findRow(ctx, id);
    return row ? attachmentRecordOf(row) : undefined;
  },
  content: (r) => ({ name: r.name, desc: r.desc, mime: r.mime.toLowerCase(), meta: r.meta, hash: r.hash, size: r.size }),
  /**
   * The bytes arrive first (content-addressed); the record links them. Another
   * state under the same id replaces the row: attachments have no versions of
   * their own, and the losing state is kept by the conflict that decided it.
   */
  apply(ctx, id, record) {
    const { store, blobs } = ctx.service;
    const companyId = ctx.caller.companyId;
    const { entryId, fileId } = splitAttachmentId(id)!;
    const row = findRow(ctx, id);
    if (record !== null) {
      if (record.entry_id !== entryId || record.id !== fileId) {
        throw validationError('record entry_id and id must match the id in the path', { '$.record.id': `must be ${id}` });
      }
      requireEntryRow(ctx, entryId);
      const reason = unsafeDisplayNameReason(record.name);
      if (reason) throw validationError(`attachment name ${reason}`, { '$.record.name': reason });
      if (record.size > MAX_ATTACHMENT_BYTES) {
        throw validationError(`refused: the file is ${record.size} bytes; the limit is ${MAX_ATTACHMENT_BYTES}`, { '$.record.size': 'over the attachment limit' });
      }
      // Bytes of this company only, by the same words whether another company holds them or nobody does.
      if (!companyHolds(ctx, record.hash)) {
        throw validationError('the attachment bytes are not here; send them first', { '$.record.hash': 'no stored bytes with this hash' });
      }
      const size = statSync(blobs.pathOf(record.hash)).size;
      if (size !== record.size) throw validationError('size does not match the stored bytes', { '$.record.size': `the bytes are ${size} long` });
    }
    if (!row && record === null) return;
    if (row) {
      // Removed on another instance (its trash): kept in this one's trash too, never simply gone.
      if (record === null) keepFileInTrash(store, row, currentActor(store, { companyId, entryId }));
      store.run(store.q.deleteFrom('attachments').where('company_id', '=', companyId).where('entry_id', '=', entryId).where('id', '=', fileId));
      // The company held these bytes: it may attach them again (a conflict's losing file kept with "keep mine").
      grantBlobs(store, companyId, [row.hash]);
    }
    if (record !== null) {
      // Restored on another instance: the copy waiting in this trash is the file now back.
      forgetTrashedFile(store, companyId, entryId, fileId, record.hash);
      store.run(
        store.q.insertInto('attachments').values({
          entry_id: entryId,
          id: fileId,
          company_id: companyId,
          name: record.name,
          desc: record.desc,
          mime: record.mime.toLowerCase(),
          hash: record.hash,
          size: record.size,
          meta: JSON.stringify(record.meta),
          created_at: new Date(record.created_at).toISOString(),
        }),
      );
    }
    store.run(
      store.q
        .updateTable('entries')
        .set((eb) => ({ version: eb('version', '+', 1), updated_at: nowIso() }))
        .where('company_id', '=', companyId)
        .where('id', '=', entryId),
    );
    recordChange(store, { company_id: companyId, kind: 'attachment', record_id: id, deleted: record === null });
  },
};

function findRow(ctx: Ctx, id: string): AttachmentRow | undefined {
  const parts = splitAttachmentId(id);
  if (!parts) return undefined;
  const { store } = ctx.service;
  return store.first(
    store.q
      .selectFrom('attachments')
      .selectAll()
      .where('company_id', '=', ctx.caller.companyId)
      .where('entry_id', '=', parts.entryId)
      .where('id', '=', parts.fileId),
  );
}

export function attachmentRecordOf(row: AttachmentRow): AttachmentRecord {
  return {
    entry_id: row.entry_id,
    id: row.id,
    name: row.name,
    desc: row.desc,
    mime: row.mime,
    meta: JSON.parse(row.meta) as Record<string, unknown>,
    hash: row.hash,
    size: row.size,
    created_at: row.created_at,
  };
}
