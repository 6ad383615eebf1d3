import { createHmac } from 'node:crypto';
import { sha256Hex } from '../sha256.ts';
import { canonicalJson } from '../gobl/index.ts';
import { ApiError, conflict, notFound, validationError } from '../api/errors.ts';
import type { Ctx } from '../api/handler.ts';
import { requestPath } from '../api/client/request-path.ts';
import { siloHostedOperations } from '../api/contract/silo-hosted.ts';
import { nowIso } from '../clock.ts';
import { attachmentView } from './entry-view.ts';
import { linkAttachment, type AttachmentView } from './attachments.ts';
import { LOCAL } from '../db/write-scopes.ts';
import { bytesOf, type HashedBytes } from '../files/hashed-bytes.ts';
import { storeBlobs } from '../files/blob-writes.ts';
import { companyIdOf } from '../access/company-key.ts';

/** A file's members as announced, before its bytes come (and as compared on a replay). */
export interface AnnouncedFile {
  name: string;
  desc: string;
  mime: string;
  meta: Record<string, unknown>;
  key: string | null;
  category: string;
  embeddable: boolean;
  private: boolean;
  hash: string;
  size: number;
}

/** How long the url of an announced file takes its bytes. */
const UPLOAD_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * The upload token of an announced file: an HMAC of what was announced under the
 * instance's secret, so announcing the same file again answers the same url (a client
 * that lost the first answer uploads to it all the same), and a token names exactly
 * one file of one entry of one company. Only its SHA-256 is stored.
 */
function uploadToken(ctx: Ctx, entryId: string, id: string, file: AnnouncedFile): string {
  const what = ['upload', ctx.caller.companyKey, entryId, id, file.hash, String(file.size)].join('\0');
  return createHmac('sha256', ctx.service.cursorSecret).update(what).digest('base64url');
}

/**
 * Keeps a file announced by its hash until its bytes come: answered in the hosted
 * shape with `stored: false` and `url`, where a PUT of the bytes stores it. Announcing
 * the same file again is a replay; another file under the same id, while the first
 * waits, is a 409. Announcements older than a day are dropped as new ones come.
 */
export async function announceUpload(ctx: Ctx, entryId: string, id: string, file: AnnouncedFile): Promise<AttachmentView> {
  const { db } = ctx.service;
  const token = uploadToken(ctx, entryId, id, file);
  const now = nowIso();
  const row = await db.tx(async () => {
    await db.run(db.q.deleteFrom('attachment_uploads').where('expires_at', '<', now));
    const waiting = await db.first(
      db.q.selectFrom('attachment_uploads').selectAll().where('company_id', '=', ctx.caller.companyKey).where('entry_id', '=', entryId).where('id', '=', id),
    );
    if (waiting) {
      if (canonicalJson(JSON.parse(waiting.file)) === canonicalJson(file)) return waiting;
      throw conflict(`file ${id} of entry ${entryId} was announced with other content; its bytes have not come yet`);
    }
    if (file.key !== null && (await findAnnouncedUpload(ctx, entryId, { key: file.key }))) {
      throw conflict(`key ${JSON.stringify(file.key)} is already used by a file of entry ${entryId}`);
    }
    const values = {
      token_hash: sha256Hex(token), entry_id: entryId, id, company_id: ctx.caller.companyKey,
      file: JSON.stringify(file), created_at: now, expires_at: new Date(Date.parse(now) + UPLOAD_TTL_MS).toISOString(),
    };
    await db.run(db.q.insertInto('attachment_uploads').values(values));
    return values;
  }, { origin: LOCAL });
  return pendingView(entryId, id, JSON.parse(row.file) as AnnouncedFile, row.created_at, token);
}

/** A file of the entry announced and still waiting for its bytes, by key. */
export async function findAnnouncedUpload(ctx: Ctx, entryId: string, by: { key: string }): Promise<{ id: string } | undefined> {
  const { db } = ctx.service;
  const rows = await db.all(db.q.selectFrom('attachment_uploads').select(['id', 'file']).where('company_id', '=', ctx.caller.companyKey).where('entry_id', '=', entryId));
  return rows.find((r) => (JSON.parse(r.file) as AnnouncedFile).key === by.key);
}

/**
 * The bytes of an announced file, PUT to its url: they must be the announced size
 * and hash, or nothing is stored (and the url stays usable for the right bytes).
 * The url is the credential, as the hosted service's upload urls are: it names one
 * file, acts for the company that announced it, and expires after a day.
 */
export async function uploadFile(ctx: Ctx, token: string, data: string | HashedBytes): Promise<AttachmentView> {
  const { db, blobs } = ctx.service;
  const row = await db.first(db.q.selectFrom('attachment_uploads').selectAll().where('token_hash', '=', sha256Hex(token)));
  if (!row) throw notFound('upload');
  if (row.expires_at < nowIso()) {
    await db.run(db.q.deleteFrom('attachment_uploads').where('token_hash', '=', row.token_hash));
    throw new ApiError('gone', 'this upload url has expired; announce the file again');
  }
  const file = JSON.parse(row.file) as AnnouncedFile;
  const content = bytesOf(data);
  const size = content.bytes.byteLength;
  if (size !== file.size) {
    throw validationError(`the file was announced as ${file.size} bytes; ${size} came`, { size: `must be ${file.size} bytes` });
  }
  const { hash } = content;
  if (hash !== file.hash) throw validationError('the bytes do not match the announced sha256', { sha256: `the bytes hash to ${hash}` });
  await storeBlobs(blobs, [content]);
  const owner: Ctx = { ...ctx, caller: { ...ctx.caller, companyKey: row.company_id, companyId: await companyIdOf(db, row.company_id) } };
  const stored = await db.tx(async () => {
    const linked = await linkAttachment(owner, row.entry_id, { id: row.id, ...file, key: file.key ?? undefined, meta: file.meta }, { hash, size });
    await db.run(db.q.deleteFrom('attachment_uploads').where('token_hash', '=', row.token_hash));
    return linked;
  }, { origin: LOCAL });
  return attachmentView(stored);
}

function pendingView(entryId: string, id: string, file: AnnouncedFile, createdAt: string, token: string): AttachmentView {
  return {
    ...attachmentView({
      entry_id: entryId, id, name: file.name, desc: file.desc, mime: file.mime, hash: file.hash, size: file.size,
      meta: JSON.stringify(file.meta), created_at: createdAt, key: file.key, category: file.category,
      embeddable: file.embeddable ? 1 : 0, private: file.private ? 1 : 0,
    }),
    stored: false,
    url: requestPath(siloHostedOperations.uploadFile, { params: { token } }),
  };
}
