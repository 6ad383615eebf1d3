import { validationError } from '../../api/errors.ts';
import type { Ctx } from '../../api/handler.ts';
import { attachmentRecord, type SyncRecordOf } from '../../api/contract/sync.ts';
import { requireEntryRow } from '../../silo/entries.ts';
import type { AttachmentRow } from '../../silo/entry-view.ts';
import { unsafeDisplayNameReason } from '../../silo/file-name.ts';
import { MAX_ATTACHMENT_BYTES } from '../../silo/attachments.ts';
import { replaceSyncedFile } from '../../silo/synced-files.ts';
import { companyHeldSize, grantBlobs } from '../blobs.ts';
import type { RecordKind } from './kind.ts';

type AttachmentRecord = SyncRecordOf['attachment'];

/** An attachment's id is only unique within its entry. */
export interface AttachmentRef {
  entryId: string;
  fileId: string;
}

const ID = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}):([A-Za-z0-9][A-Za-z0-9._-]{0,127})$/;

export const attachmentKind: RecordKind<AttachmentRecord, AttachmentRef> = {
  kind: 'attachment',
  schema: attachmentRecord,
  // Sync names it `entry-id:file-id`.
  refOf(id) {
    const m = ID.exec(id);
    return m ? { entryId: m[1], fileId: m[2] } : undefined;
  },
  parentOf: (ref) => ({ kind: 'entry', id: ref.entryId }),
  entryOf: (ref) => ref.entryId,
  async read(ctx, ref) {
    const row = await findRow(ctx, ref);
    return row ? attachmentRecordOf(row) : undefined;
  },
  content: (r) => ({ name: r.name, desc: r.desc, mime: r.mime.toLowerCase(), meta: r.meta, hash: r.hash, size: r.size }),
  /** The bytes arrive first (content-addressed); the record links them, through the silo's own write path. */
  async apply(ctx, ref, record) {
    const { entryId, fileId } = ref;
    if (record !== null) {
      if (record.entry_id !== entryId || record.id !== fileId) {
        throw validationError('record entry_id and id must match the id in the path', { '$.record.id': `must be ${entryId}:${fileId}` });
      }
      await requireEntryRow(ctx, entryId);
      const reason = unsafeDisplayNameReason(record.name);
      if (reason) throw validationError(`attachment name ${reason}`, { '$.record.name': reason });
      if (record.size > MAX_ATTACHMENT_BYTES) {
        throw validationError(`refused: the file is ${record.size} bytes; the limit is ${MAX_ATTACHMENT_BYTES}`, { '$.record.size': 'over the attachment limit' });
      }
      // Bytes of this company only, by the same words whether another company holds them or nobody does.
      const size = await companyHeldSize(ctx, record.hash);
      if (size === undefined) {
        throw validationError('the attachment bytes are not here; send them first', { '$.record.hash': 'no stored bytes with this hash' });
      }
      if (size !== record.size) throw validationError('size does not match the stored bytes', { '$.record.size': `the bytes are ${size} long` });
    }
    const replaced = await replaceSyncedFile(ctx, entryId, fileId, record);
    // The company held these bytes: it may attach them again (a conflict's losing file kept with "keep mine").
    if (replaced) await grantBlobs(ctx.service.db, ctx.caller.companyKey, [replaced.hash]);
  },
};

async function findRow(ctx: Ctx, ref: AttachmentRef): Promise<AttachmentRow | undefined> {
  const { db } = ctx.service;
  return await db.first(
    db.q
      .selectFrom('attachments')
      .selectAll()
      .where('company_id', '=', ctx.caller.companyKey)
      .where('entry_id', '=', ref.entryId)
      .where('id', '=', ref.fileId),
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
