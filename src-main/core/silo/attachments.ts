import { existsSync } from 'node:fs';
import { canonicalJson } from '../gobl/index.ts';
import { ApiError, conflict, notFound, validationError } from '../api/errors.ts';
import type { Ctx } from '../api/handler.ts';
import type { BinaryResult } from '../api/operation.ts';
import { nowIso } from '../clock.ts';
import { recordChange } from '../sync/change-log.ts';
import { attachmentView, type AttachmentRow } from './entry-view.ts';
import { requireEntryRow } from './entries.ts';
import { isInlineSafe, mimeFromName, unsafeDisplayNameReason } from './file-name.ts';

export const MAX_ATTACHMENT_BYTES = 50 * 1024 * 1024;

export interface PutAttachmentInput {
  name: string;
  desc?: string;
  mime?: string;
  meta?: Record<string, unknown>;
  hash?: string;
  data: string;
}

/**
 * Stores a file for an entry. The bytes go to the content-addressed store first
 * (atomic, fsynced) and only then is the row written, so a crash or a dropped
 * upload never leaves a row pointing at a missing or partial file. Replaying the
 * same attachment is a no-op; another file under the same id is a 409.
 */
export function putAttachment(ctx: Ctx, entryId: string, id: string, input: PutAttachmentInput) {
  requireEntryRow(ctx, entryId);
  const reason = unsafeDisplayNameReason(input.name);
  if (reason) throw validationError(`attachment name ${reason}`, { '$.name': reason });

  const bytes = Buffer.from(input.data, 'base64');
  const row = storeAttachment(ctx, entryId, { id, name: input.name, desc: input.desc, mime: input.mime, meta: input.meta, bytes }, input.hash);
  return attachmentView(row);
}

/**
 * Stores bytes and links them to the entry. The file is written (atomically) before
 * the row exists; the row and the entry's version bump are one transaction.
 */
export function storeAttachment(
  ctx: Ctx,
  entryId: string,
  file: { id: string; name: string; desc?: string; mime?: string; meta?: Record<string, unknown>; bytes: Uint8Array },
  expectedHash?: string,
): AttachmentRow {
  const { store, blobs } = ctx.service;
  if (file.bytes.byteLength > MAX_ATTACHMENT_BYTES) {
    throw new ApiError('too-large', `attachment is ${file.bytes.byteLength} bytes; the limit is ${MAX_ATTACHMENT_BYTES}`);
  }
  const { hash, size } = blobs.put(file.bytes);
  if (expectedHash && expectedHash !== hash) {
    throw validationError('the bytes do not match the given hash', { '$.hash': `the bytes hash to ${hash}` });
  }
  const mime = (file.mime ?? mimeFromName(file.name)).toLowerCase();
  const metaJson = file.meta ?? {};
  const desc = file.desc ?? '';
  return store.tx(() => {
    const existing = store.first(
      store.q.selectFrom('attachments').selectAll().where('entry_id', '=', entryId).where('id', '=', file.id),
    );
    if (existing) {
      const same =
        existing.hash === hash && existing.name === file.name && existing.mime === mime && existing.desc === desc &&
        canonicalJson(JSON.parse(existing.meta)) === canonicalJson(metaJson);
      if (same) return existing;
      throw conflict(`attachment ${file.id} of entry ${entryId} already exists with other content`);
    }
    const values = {
      entry_id: entryId, id: file.id, company_id: ctx.caller.companyId, name: file.name, desc, mime, hash, size,
      meta: JSON.stringify(metaJson), created_at: nowIso(),
    };
    store.run(store.q.insertInto('attachments').values(values));
    store.run(
      store.q
        .updateTable('entries')
        .set((eb) => ({ version: eb('version', '+', 1), updated_at: values.created_at }))
        .where('id', '=', entryId),
    );
    recordChange(store, { company_id: values.company_id, kind: 'attachment', record_id: `${entryId}:${file.id}` });
    return values;
  });
}

export function getAttachment(ctx: Ctx, entryId: string, id: string): BinaryResult {
  const { store, blobs } = ctx.service;
  requireEntryRow(ctx, entryId);
  const row = store.first(
    store.q.selectFrom('attachments').selectAll().where('entry_id', '=', entryId).where('id', '=', id),
  );
  if (!row) throw notFound(`attachment ${id} of entry ${entryId}`);
  const file = blobs.pathOf(row.hash);
  if (!existsSync(file)) throw notFound(`the stored bytes of attachment ${id}`);
  return { mime: row.mime, name: row.name, size: row.size, file, inline: isInlineSafe(row.mime) };
}
