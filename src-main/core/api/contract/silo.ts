import { z } from 'zod';
import { defineOperation } from '../operation.ts';
import {
  fault, folder, jsonObject, label, listLimit, queryBool, queryInt, state, tag, tags, timestamp, uuid,
} from './common.ts';

const attachmentId = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/, 'must be 1-128 characters of A-Z a-z 0-9 . _ -');
const metaKey = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, 'must be 1-64 characters of A-Z a-z 0-9 . _ -');
const mime = z
  .string()
  .max(255)
  .regex(/^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*$/i, 'must be a media type like application/pdf');

export const attachmentSchema = z.object({
  id: z.string(),
  entry_id: z.string(),
  created_at: z.string(),
  desc: z.string(),
  hash: z.string(),
  meta: jsonObject,
  mime: z.string(),
  name: z.string(),
  size: z.number().int(),
  stored: z.boolean(),
  url: z.string(),
});

export const metaSchema = z.object({
  id: z.string(),
  entry_id: z.string(),
  key: z.string(),
  src: z.string(),
  ref: z.string(),
  value: z.unknown(),
  shared: z.boolean(),
  link_scope: z.string(),
  link_url: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
});

export const entrySchema = z.object({
  id: z.string(),
  key: z.string().optional(),
  created_at: z.string(),
  updated_at: z.string(),
  version: z.number().int(),
  attachments: z.array(attachmentSchema),
  context: z.string(),
  data: jsonObject.optional(),
  digest: z.object({ alg: z.string(), val: z.string() }),
  doc_schema: z.string(),
  env_schema: z.string(),
  draft: z.boolean(),
  invalid: z.boolean(),
  signed: z.boolean(),
  faults: z.array(fault),
  folder: z.string(),
  meta: z.array(metaSchema),
  snippet: z.record(z.string(), z.string()),
  state: z.string(),
  tags: z.array(z.string()),
});

export const entryPageSchema = z.object({
  list: z.array(entrySchema),
  limit: z.number().int(),
  cursor: z.string().optional(),
  next_cursor: z.string().optional(),
  folder: z.string().optional(),
  created_at: z.string().optional(),
});

const entryParams = z.object({ id: uuid });
const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date like 2024-12-31');
const pageQuery = {
  created_at: timestamp.optional(),
  cursor: z.string().max(512).optional(),
  limit: listLimit,
  ascending: queryBool.default(false),
};

export const entryCreateBody = z.object({
  data: jsonObject,
  key: label(255).optional(),
  folder: folder.optional(),
  tags: tags.optional(),
  state: state.optional(),
  /** store a document that fails validation, flagged `invalid` with its faults */
  allow_invalid: z.boolean().optional(),
});

export const patchContentTypes = ['application/json', 'application/merge-patch+json', 'application/json-patch+json'] as const;

const jsonPatchOperation = z.object({
  op: z.enum(['add', 'remove', 'replace', 'move', 'copy', 'test']),
  path: z.string(),
  from: z.string().optional(),
  value: z.unknown().optional(),
});

export const siloOperations = {
  listEntries: defineOperation({
    method: 'GET',
    path: '/silo/v1/entries',
    summary: 'List the entries of the current company, newest first, with keyset cursors',
    area: 'silo',
    access: ['owner', 'user', 'app'],
    query: z.object({
      folder: folder.optional(),
      state: state.optional(),
      tag: tag.optional(),
      /** the document's issue date range, inclusive (YYYY-MM-DD) */
      date_from: isoDate.optional(),
      date_to: isoDate.optional(),
      /** entries holding the document with this uuid (e.g. the invoice a credit note's preceding[] names) */
      doc_uuid: uuid.optional(),
      ...pageQuery,
    }),
    output: entryPageSchema,
  }),
  importEntries: defineOperation({
    method: 'POST',
    path: '/silo/v1/import',
    summary: 'Store many documents at once (one transaction); each item succeeds or fails on its own',
    area: 'silo',
    access: ['owner', 'user', 'app'],
    body: z.object({
      entries: z.array(entryCreateBody.extend({ id: uuid.optional() })).min(1).max(1000, 'at most 1000 entries a call'),
    }),
    maxBody: 50 * 1024 * 1024,
    output: z.object({
      results: z.array(
        z.object({
          index: z.number().int(),
          status: z.enum(['created', 'exists', 'error']),
          id: z.string().optional(),
          error: z.object({ key: z.string(), code: z.string(), message: z.string(), fields: z.record(z.string(), z.string()).optional() }).optional(),
          duplicate_of: z.string().optional(),
        }),
      ),
      created: z.number().int(),
      existing: z.number().int(),
      failed: z.number().int(),
    }),
  }),
  getEntry: defineOperation({
    method: 'GET',
    path: '/silo/v1/entries/{id}',
    summary: 'Fetch one entry with its document',
    area: 'silo',
    access: ['owner', 'user', 'app'],
    params: entryParams,
    output: entrySchema,
  }),
  getEntryByKey: defineOperation({
    method: 'GET',
    path: '/silo/v1/entries/key/{key}',
    summary: 'Fetch one entry by the idempotency key it was created with',
    area: 'silo',
    access: ['owner', 'user', 'app'],
    params: z.object({ key: label(255) }),
    output: entrySchema,
  }),
  createEntry: defineOperation({
    method: 'POST',
    path: '/silo/v1/entries',
    summary: 'Store a GOBL envelope or document as a new entry',
    area: 'silo',
    access: ['owner', 'user', 'app'],
    body: entryCreateBody,
    output: entrySchema,
  }),
  putEntry: defineOperation({
    method: 'PUT',
    path: '/silo/v1/entries/{id}',
    summary: 'Store an entry under a client-chosen UUID (idempotent)',
    area: 'silo',
    access: ['owner', 'user', 'app'],
    params: entryParams,
    body: entryCreateBody,
    output: entrySchema,
  }),
  patchEntry: defineOperation({
    method: 'PATCH',
    path: '/silo/v1/entries/{id}',
    summary: 'Replace or patch the document (JSON, merge patch or JSON patch), or move it to a folder',
    area: 'silo',
    access: ['owner', 'user', 'app'],
    params: entryParams,
    body: z.object({
      content_type: z.enum(patchContentTypes).default('application/json'),
      data: z.union([jsonObject, z.array(jsonPatchOperation)]).optional(),
      folder: folder.optional(),
      tags: tags.optional(),
      state: state.optional(),
      allow_invalid: z.boolean().optional(),
    }),
    output: entrySchema,
  }),
  listRelated: defineOperation({
    method: 'GET',
    path: '/silo/v1/entries/{id}/related',
    summary: "Entries whose document mentions this entry's UUID",
    area: 'silo',
    access: ['owner', 'user', 'app'],
    params: entryParams,
    query: z.object({
      uuid: uuid.optional(),
      context: z.string().max(200).optional(),
      ...pageQuery,
    }),
    output: entryPageSchema,
  }),
  listFolders: defineOperation({
    method: 'GET',
    path: '/silo/v1/folders',
    summary: 'Folders of the current company with their entry counts',
    area: 'silo',
    access: ['owner', 'user', 'app'],
    output: z.object({ list: z.array(z.object({ folder: z.string(), count: z.number().int() })) }),
  }),
  listTags: defineOperation({
    method: 'GET',
    path: '/silo/v1/tags',
    summary: 'Tags in use in the current company with their entry counts',
    area: 'silo',
    access: ['owner', 'user', 'app'],
    output: z.object({ list: z.array(z.object({ tag: z.string(), count: z.number().int() })) }),
  }),
  searchEntries: defineOperation({
    method: 'GET',
    path: '/silo/v1/search',
    summary: 'Full-text search over titles and document text',
    area: 'silo',
    access: ['owner', 'user', 'app'],
    query: z.object({
      q: z.string().min(1, 'must not be empty').max(200),
      folder: folder.optional(),
      state: state.optional(),
      tag: tag.optional(),
      date_from: isoDate.optional(),
      date_to: isoDate.optional(),
      limit: listLimit,
      offset: queryInt(0, 10_000).default(0),
    }),
    output: z.object({
      list: z.array(entrySchema),
      q: z.string(),
      limit: z.number().int(),
      offset: z.number().int(),
      next_offset: z.number().int().optional(),
    }),
  }),
  putAttachment: defineOperation({
    method: 'PUT',
    path: '/silo/v1/entries/{entry_id}/files/{id}',
    summary: 'Store a file (base64 in JSON) as an attachment of the entry',
    area: 'silo',
    access: ['owner', 'user', 'app'],
    params: z.object({ entry_id: uuid, id: attachmentId }),
    body: z.object({
      name: z.string().max(1024),
      desc: z.string().max(2000).optional(),
      mime: mime.optional(),
      meta: jsonObject.optional(),
      /** expected SHA-256 hex of the bytes; a mismatch is refused */
      hash: z.string().regex(/^[0-9a-f]{64}$/, 'must be a lower-case hex SHA-256').optional(),
      data: z.string().regex(/^[A-Za-z0-9+/]*={0,2}$/, 'must be base64'),
    }),
    maxBody: 70 * 1024 * 1024,
    output: attachmentSchema,
  }),
  getAttachment: defineOperation({
    method: 'GET',
    path: '/silo/v1/entries/{entry_id}/files/{id}',
    summary: 'Download the bytes of an attachment',
    area: 'silo',
    access: ['owner', 'user', 'app'],
    params: z.object({ entry_id: uuid, id: attachmentId }),
    output: 'binary',
  }),
  putMeta: defineOperation({
    method: 'PUT',
    path: '/silo/v1/entries/{entry_id}/meta/{key}',
    summary: 'Set a meta record of the entry',
    area: 'silo',
    access: ['owner', 'user', 'app'],
    params: z.object({ entry_id: uuid, key: metaKey }),
    body: z.object({
      src: metaKey.default('user'),
      ref: z.string().max(255).default(''),
      value: z.unknown().default({}),
      shared: z.boolean().default(false),
      link_scope: z.string().max(64).default(''),
      link_url: z.union([z.url(), z.literal('')]).default(''),
    }),
    maxBody: 1024 * 1024,
    output: metaSchema,
  }),
  getMeta: defineOperation({
    method: 'GET',
    path: '/silo/v1/entries/{entry_id}/meta/{key}',
    summary: 'Read a meta record of the entry',
    area: 'silo',
    access: ['owner', 'user', 'app'],
    params: z.object({ entry_id: uuid, key: metaKey }),
    query: z.object({ src: metaKey.optional() }),
    output: metaSchema,
  }),
  deleteMeta: defineOperation({
    method: 'DELETE',
    path: '/silo/v1/entries/{entry_id}/meta/{key}',
    summary: 'Delete a meta record of the entry',
    area: 'silo',
    access: ['owner', 'user', 'app'],
    params: z.object({ entry_id: uuid, key: metaKey }),
    query: z.object({ src: metaKey.optional() }),
    output: z.object({ deleted: z.number().int() }),
  }),
};
