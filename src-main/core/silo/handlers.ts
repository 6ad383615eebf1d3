import type { HandlersOf } from '../api/handler.ts';
import type { goblOperations } from '../api/contract/gobl.ts';
import type { siloOperations } from '../api/contract/silo.ts';
import { getAttachment, putAttachment } from './attachments.ts';
import { deskListHandlers } from './desk-handlers.ts';
import { createEntry, getEntry, getEntryByKey } from './entries.ts';
import { goblHandlers } from './gobl-handlers.ts';
import { importEntriesSliced } from './import.ts';
import { listEntries, listFolders, listRelated, listTags } from './list.ts';
import { deleteMeta, getMeta, putMeta } from './meta.ts';
import { patchEntry } from './patch.ts';
import { searchEntries } from './search.ts';
import { checkHostedLimit } from '../transform/list-limit.ts';

export const siloHandlers: HandlersOf<typeof siloOperations & typeof goblOperations> = {
  ...goblHandlers,
  ...deskListHandlers,
  listEntries: (ctx, { query }) => listEntries(ctx, { ...query, limit: checkHostedLimit(query.limit) }),
  importEntries: (ctx, { body }) => importEntriesSliced(ctx, body.entries, body.on_duplicate),
  getEntry: (ctx, { params }) => getEntry(ctx, params.id),
  getEntryByKey: (ctx, { params }) => getEntryByKey(ctx, params.key),
  createEntry: (ctx, { body }) => createEntry(ctx, undefined, body),
  putEntry: (ctx, { params, body, headers }) => createEntry(ctx, params.id, body, headers),
  patchEntry: (ctx, { params, body, headers }) => patchEntry(ctx, params.id, body, headers),
  listRelated: (ctx, { params, query }) => listRelated(ctx, params.id, { ...query, limit: checkHostedLimit(query.limit) }),
  listFolders: (ctx) => listFolders(ctx),
  listTags: (ctx) => listTags(ctx),
  searchEntries: async (ctx, { query: { q, query, ...rest } }) => {
    // The hosted service answers the text as `query`; both names are taken in.
    const { q: text, ...found } = await searchEntries(ctx, { ...rest, q: (q ?? query)!, limit: checkHostedLimit(rest.limit) });
    return { ...found, query: text, ...(rest.folder !== undefined ? { folder: rest.folder } : {}) };
  },
  putAttachment: (ctx, { params, body }) => putAttachment(ctx, params.entry_id, params.id, body),
  getAttachment: (ctx, { params }) => getAttachment(ctx, params.entry_id, params.id),
  putMeta: (ctx, { params, body }) => putMeta(ctx, params.entry_id, params.key, body),
  getMeta: (ctx, { params, query }) => getMeta(ctx, params.entry_id, params.key, query.src),
  deleteMeta: (ctx, { params, query }) => deleteMeta(ctx, params.entry_id, params.key, query.src),
};
