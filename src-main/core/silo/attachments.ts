import { newUuidV7 as uuidv7 } from '../new-uuid.ts';
import { canonicalJson } from '../gobl/index.ts';
import { ApiError, conflict, notFound, validationError } from '../api/errors.ts';
import type { Operations } from '../api/contract/index.ts';
import type { Ctx } from '../api/handler.ts';
import type { BinaryResult, ParsedInput } from '../api/operation.ts';
import { nowIso } from '../clock.ts';
import { companyHeldSize } from '../sync/blobs.ts';
import { LOCAL } from '../db/write-scopes.ts';
import { bytesOf, type HashedBytes } from '../files/hashed-bytes.ts';
import { storeBlobs } from '../files/blob-writes.ts';
import { attachmentView, type AttachmentRow } from './entry-view.ts';
import { requireEntryRow } from './entries.ts';
import { announceUpload, findAnnouncedUpload, type AnnouncedFile } from './file-upload.ts';
import { isInlineSafe, mimeFromName, unsafeDisplayNameReason } from './file-name.ts';

export const MAX_ATTACHMENT_BYTES = 50 * 1024 * 1024;

/** A file as the hosted service takes it (PUT and POST, the contract's fileBody, parsed): bytes as base64 `data`, or announced by `sha256`. */
export type FileInput = ParsedInput<Operations['putAttachment']>['body'];

/** What describes a stored file beside its bytes. */
export interface FileMembers {
  id: string;
  name: string;
  desc?: string;
  mime?: string;
  meta?: Record<string, unknown>;
  key?: string;
  category?: string;
  embeddable?: boolean;
  private?: boolean;
}

export type AttachmentView = ReturnType<typeof attachmentView>;

/**
 * POST: a file under a new id (a UUIDv7, as the hosted service makes them); a key already in the entry is a replay or a 409.
 * The key's look-up and the write are one transaction: two POSTs of one key at once are a file and its replay, never a 409.
 * On PostgreSQL, where transactions run side by side, the entry's row is locked first, so the second reads the first's file.
 */
export async function createFile(ctx: Ctx, entryId: string, input: FileInput): Promise<AttachmentView> {
  const { db } = ctx.service;
  const content = await storeSentBytes(ctx, entryId, input);
  const key = input.key;
  if (key === undefined) return putFile(ctx, entryId, uuidv7(), input, content);
  return db.tx(async () => {
    await requireEntryRow(ctx, entryId, 'for-update');
    const held = await db.first(
      db.q.selectFrom('attachments').select('id')
        .where('company_id', '=', ctx.caller.companyKey).where('entry_id', '=', entryId).where('key', '=', key),
    );
    const pending = held ? undefined : await findAnnouncedUpload(ctx, entryId, { key });
    const id = held?.id ?? pending?.id;
    return putFile(ctx, entryId, id ?? uuidv7(), input, content);
  }, { origin: db.origin ?? LOCAL });
}

/**
 * PUT: a file of the entry under the client's id. With `data`, the bytes go to the
 * content-addressed store first (atomic, fsynced, before any transaction begins, so no
 * other write waits on the disk) and only then is the row written, so a crash or a
 * dropped upload never leaves a row pointing at missing bytes.
 * Without `data`, the file is announced by its hash: when the company holds those
 * bytes already it is stored at once; otherwise it answers `stored: false` with the
 * `url` to PUT the bytes to. The same file again is a replay (the same answer);
 * another file under the id, or under a key the entry already uses, is a 409. One
 * transaction from the look-ups to the write, so a file stored meanwhile under the id
 * is seen before this one is announced.
 */
export async function putAttachment(ctx: Ctx, entryId: string, id: string, input: FileInput): Promise<AttachmentView> {
  return putFile(ctx, entryId, id, input, await storeSentBytes(ctx, entryId, input));
}

/**
 * The bytes a file was sent with (none when it is announced by its hash), checked and in
 * the content store. The entry is looked for first, so bytes for an entry that is not
 * there are never written; its row is locked later, in the transaction that links them.
 */
async function storeSentBytes(ctx: Ctx, entryId: string, input: FileInput): Promise<HashedBytes | undefined> {
  if (input.data === undefined) return undefined;
  await requireEntryRow(ctx, entryId);
  checkName(input.name);
  const content = bytesOf(input.data);
  if (input.size !== undefined && input.size !== content.bytes.byteLength) {
    throw validationError('size does not match the data', { '$.size': `the data is ${content.bytes.byteLength} bytes` });
  }
  checkContent(content, input.sha256 ?? input.hash);
  await storeBlobs(ctx.service.blobs, [content]);
  return content;
}

function putFile(ctx: Ctx, entryId: string, id: string, input: FileInput, content: HashedBytes | undefined): Promise<AttachmentView> {
  const { db } = ctx.service;
  return db.tx(() => putFileNow(ctx, entryId, id, input, content), { origin: db.origin ?? LOCAL });
}

async function putFileNow(ctx: Ctx, entryId: string, id: string, input: FileInput, content: HashedBytes | undefined): Promise<AttachmentView> {
  // Locked (on PostgreSQL) so files written to one entry at once take turns: the second sees the first's id and key.
  await requireEntryRow(ctx, entryId, 'for-update');
  checkName(input.name);
  const members: FileMembers = {
    id, name: input.name, desc: input.desc, mime: input.mime, meta: input.meta,
    key: input.key, category: input.category, embeddable: input.embeddable, private: input.private,
  };
  if (content) return attachmentView(await linkAttachment(ctx, entryId, members, { hash: content.hash, size: content.bytes.byteLength }));

  const announced = input.sha256 ?? input.hash;
  const size = input.size!;
  if (size > MAX_ATTACHMENT_BYTES) throw tooLarge(size);
  const file = fileRecordOf(members, announced!, size, input.mime!);
  const existing = await findAttachment(ctx, entryId, id);
  if (existing) {
    if (sameFile(existing, file)) return attachmentView(existing);
    throw conflict(`attachment ${id} of entry ${entryId} already exists with other content`);
  }
  // Bytes this company holds already (by the same words whether another company holds them or nobody does).
  if ((await companyHeldSize(ctx, file.hash)) === size) {
    return attachmentView(await linkAttachment(ctx, entryId, members, { hash: file.hash, size }));
  }
  return announceUpload(ctx, entryId, id, file);
}

function checkName(name: string): void {
  const reason = unsafeDisplayNameReason(name);
  if (reason) throw validationError(`attachment name ${reason}`, { '$.name': reason });
}

/** Bytes that are too large, or not what `expectedHash` names, are refused before anything is written. */
function checkContent(content: HashedBytes, expectedHash?: string): void {
  if (content.bytes.byteLength > MAX_ATTACHMENT_BYTES) throw tooLarge(content.bytes.byteLength);
  if (expectedHash && expectedHash !== content.hash) {
    throw validationError('the bytes do not match the given hash', { '$.sha256': `the bytes hash to ${content.hash}` });
  }
}

/**
 * Stores bytes and links them to the entry. The file is written (atomically) before
 * the row exists; the row and the entry's version bump are one transaction.
 */
export async function storeAttachment(ctx: Ctx, entryId: string, file: FileMembers, content: HashedBytes): Promise<AttachmentRow> {
  checkContent(content);
  await storeBlobs(ctx.service.blobs, [content]);
  return linkAttachment(ctx, entryId, file, { hash: content.hash, size: content.bytes.byteLength });
}

/**
 * Links bytes already in the store to the entry as a file: a replay of the same file
 * is answered as it is, another file under the id or under the entry's key is a 409.
 */
export async function linkAttachment(ctx: Ctx, entryId: string, file: FileMembers, bytes: { hash: string; size: number }): Promise<AttachmentRow> {
  const { db } = ctx.service;
  const record = fileRecordOf(file, bytes.hash, bytes.size, file.mime ?? mimeFromName(file.name));
  return db.tx(async () => {
    const existing = await findAttachment(ctx, entryId, file.id);
    if (existing) {
      if (sameFile(existing, record)) return existing;
      throw conflict(`attachment ${file.id} of entry ${entryId} already exists with other content`);
    }
    if (record.key !== null) {
      const holder = await db.first(
        db.q.selectFrom('attachments').select('id').where('company_id', '=', ctx.caller.companyKey).where('entry_id', '=', entryId).where('key', '=', record.key),
      );
      if (holder) throw conflict(`key ${JSON.stringify(record.key)} is already used by file ${holder.id} of entry ${entryId}`);
    }
    const values = {
      entry_id: entryId, id: file.id, company_id: ctx.caller.companyKey, name: record.name, desc: record.desc, mime: record.mime,
      hash: record.hash, size: record.size, meta: JSON.stringify(record.meta), created_at: nowIso(),
      key: record.key, category: record.category, embeddable: record.embeddable ? 1 : 0, private: record.private ? 1 : 0,
    };
    await db.run(db.q.insertInto('attachments').values(values));
    await db.run(
      db.q
        .updateTable('entries')
        .set((eb) => ({ version: eb('version', '+', 1), updated_at: values.created_at }))
        .where('company_id', '=', values.company_id)
        .where('id', '=', entryId),
    );
    return values;
  }, { origin: db.origin ?? LOCAL });
}

/** A file's members as they are compared and stored: defaults filled in, the type lower-case. */
export function fileRecordOf(file: FileMembers, hash: string, size: number, mime: string): AnnouncedFile {
  return {
    name: file.name,
    desc: file.desc ?? '',
    mime: mime.toLowerCase(),
    meta: file.meta ?? {},
    key: file.key ?? null,
    category: file.category ?? '',
    embeddable: file.embeddable ?? false,
    private: file.private ?? false,
    hash,
    size,
  };
}

function sameFile(row: AttachmentRow, file: AnnouncedFile): boolean {
  return (
    row.hash === file.hash && row.name === file.name && row.mime === file.mime && row.desc === file.desc &&
    (row.key ?? null) === file.key && row.category === file.category && !!row.embeddable === file.embeddable &&
    !!row.private === file.private && canonicalJson(JSON.parse(row.meta)) === canonicalJson(file.meta)
  );
}

/** A file of an entry of the caller's company (an entry id is only unique within its company, issue 12). */
function findAttachment(ctx: Ctx, entryId: string, id: string): Promise<AttachmentRow | undefined> {
  const { db } = ctx.service;
  return db.first(
    db.q.selectFrom('attachments').selectAll().where('company_id', '=', ctx.caller.companyKey).where('entry_id', '=', entryId).where('id', '=', id),
  );
}

const tooLarge = (size: number) => new ApiError('too-large', `attachment is ${size} bytes; the limit is ${MAX_ATTACHMENT_BYTES}`);

export async function getAttachment(ctx: Ctx, entryId: string, id: string): Promise<BinaryResult> {
  const { blobs } = ctx.service;
  await requireEntryRow(ctx, entryId);
  const row = await findAttachment(ctx, entryId, id);
  if (!row) throw notFound(`attachment ${id} of entry ${entryId}`);
  const file = blobs.pathOf(row.hash);
  if (!(await blobs.holds(row.hash))) throw notFound(`the stored bytes of attachment ${id}`);
  return { mime: row.mime, name: row.name, size: row.size, file, inline: isInlineSafe(row.mime) };
}
