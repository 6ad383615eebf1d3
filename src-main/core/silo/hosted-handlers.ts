import type { HandlersOf } from '../api/handler.ts';
import type { siloHostedOperations } from '../api/contract/silo-hosted.ts';
import { checkHostedLimit } from '../transform/list-limit.ts';
import { createFile } from './attachments.ts';
import { uploadFile } from './file-upload.ts';
import { findRelated } from './related-by-uuid.ts';
import { listEntryStates, putEntryState } from './states.ts';

/** The hosted service's silo operations the desk answers besides its own: states, related by uuid, files. */
export const siloHostedHandlers: HandlersOf<typeof siloHostedOperations> = {
  listEntryStates: (ctx, { params }) => listEntryStates(ctx, params.entry_id),
  createEntryState: (ctx, { params, body }) => putEntryState(ctx, params.entry_id, body),
  putEntryState: (ctx, { params, body }) => putEntryState(ctx, params.entry_id, body, params.at),
  findRelated: (ctx, { query }) => findRelated(ctx, { ...query, limit: checkHostedLimit(query.limit) }),
  createFile: (ctx, { params, body }) => createFile(ctx, params.entry_id, body),
  uploadFile: (ctx, { params, body }) => uploadFile(ctx, params.token, body.data),
};
