import { notFound } from '../api/errors.ts';
import type { HandlersOf } from '../api/handler.ts';
import type { recordKeepingOperations } from '../api/contract/record-keeping.ts';
import { listAudit, verifyAudit } from './audit-log.ts';
import { getVersion, listVersions, restoreVersion } from './history.ts';
import { diffVersions } from './history-diff.ts';
import { getTrashedEntry, getTrashSettings, listTrash, putTrashSettings, restoreEntry, trashEntry } from './trash.ts';
import { restoreFile, trashFile } from './trash-files.ts';
import { purgeNow } from './trash-purge.ts';

/** A version as the path names it: the entry's version number (hosted clients send it as a string). */
function versionNumber(id: string, text: string): number {
  if (!/^[0-9]{1,15}$/.test(text)) throw notFound(`version ${text} of entry ${id}`);
  return Number(text);
}

export const recordKeepingHandlers: HandlersOf<typeof recordKeepingOperations> = {
  trashEntry: (ctx, { params }) => trashEntry(ctx, params.id),
  restoreEntry: (ctx, { params }) => restoreEntry(ctx, params.id),
  trashAttachment: (ctx, { params }) => trashFile(ctx, params.entry_id, params.id),
  restoreAttachment: (ctx, { params }) => restoreFile(ctx, params.entry_id, params.id),
  listTrash: (ctx, { query }) => listTrash(ctx, query),
  getTrashedEntry: (ctx, { params }) => getTrashedEntry(ctx, params.id),
  purgeTrash: (ctx, { body }) => purgeNow(ctx, body.items),
  getTrashSettings: (ctx) => getTrashSettings(ctx),
  putTrashSettings: (ctx, { body }) => putTrashSettings(ctx, body),
  listEntryVersions: (ctx, { params, query }) => listVersions(ctx, params.id, query),
  getEntryVersion: (ctx, { params }) => getVersion(ctx, params.id, versionNumber(params.id, params.version)),
  diffEntryVersions: (ctx, { params, query }) =>
    diffVersions(ctx, params.id, versionNumber(params.id, params.version), query.from === undefined ? undefined : versionNumber(params.id, query.from)),
  restoreEntryVersion: (ctx, { params }) => restoreVersion(ctx, params.id, versionNumber(params.id, params.version)),
  listAudit: (ctx, { query }) => listAudit(ctx, query),
  verifyAudit: (ctx) => verifyAudit(ctx),
};
