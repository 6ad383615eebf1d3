import type { HandlersOf } from '../api/handler.ts';
import type { goblOperations } from '../api/contract/gobl.ts';
import type { siloOperations } from '../api/contract/silo.ts';
import { getAttachment, putAttachment } from './attachments.ts';
import { deskListHandlers } from './desk-handlers.ts';
import { createEntry, getEntry, getEntryByKey } from './entries.ts';
import { goblHandlers } from './gobl-handlers.ts';
import { importEntries } from './import.ts';
import { listEntries, listFolders, listRelated, listTags } from './list.ts';
import { deleteMeta, getMeta, putMeta } from './meta.ts';
import { patchEntry } from './patch.ts';
import { searchEntries } from './search.ts';

export const siloHandlers: HandlersOf<typeof siloOperations & typeof goblOperations> = {
  ...goblHandlers,
  ...deskListHandlers,
  listEntries: (ctx, { query }) => listEntries(ctx, query),
  importEntries: (ctx, { body }) => importEntries(ctx, body.entries, body.on_duplicate),
  getEntry: (ctx, { params }) => getEntry(ctx, params.id),
  getEntryByKey: (ctx, { params }) => getEntryByKey(ctx, params.key),
  createEntry: (ctx, { body }) => createEntry(ctx, undefined, body),
  putEntry: (ctx, { params, body, headers }) => createEntry(ctx, params.id, body, headers),
  patchEntry: (ctx, { params, body, headers }) => patchEntry(ctx, params.id, body, headers),
  listRelated: (ctx, { params, query }) => listRelated(ctx, params.id, query),
  listFolders: (ctx) => listFolders(ctx),
  listTags: (ctx) => listTags(ctx),
  searchEntries: (ctx, { query }) => searchEntries(ctx, query),
  putAttachment: (ctx, { params, body }) => putAttachment(ctx, params.entry_id, params.id, body),
  getAttachment: (ctx, { params }) => getAttachment(ctx, params.entry_id, params.id),
  putMeta: (ctx, { params, body }) => putMeta(ctx, params.entry_id, params.key, body),
  getMeta: (ctx, { params, query }) => getMeta(ctx, params.entry_id, params.key, query.src),
  deleteMeta: (ctx, { params, query }) => deleteMeta(ctx, params.entry_id, params.key, query.src),
};
