import { z } from 'zod';
import { defineOperation } from '../operation.ts';
import {
  base64, closedObject, fault, folder, jsonObject, label, queryBool, queryInt, state, tag, tags, timestamp, sha256, uuid,
} from './common.ts';
import { hostedLimit } from './transform-query.ts';
import { entryPreconditionHeaders } from './preconditions.ts';

const attachmentId = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/, 'must be 1-128 characters of A-Z a-z 0-9 . _ -');
const metaKey = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, 'must be 1-64 characters of A-Z a-z 0-9 . _ -');
const mime = z
  .string()
  .max(255)
  .regex(/^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*$/i, 'must be a media type like application/pdf');

/** A file of an entry, as the hosted service's SiloFile. */
export const attachmentSchema = z.object({
  id: z.string(),
  entry_id: z.string(),
  created_at: z.string(),
  name: z.string(),
  desc: z.string(),
  /** identifies the file within its entry, for the service or app that made it (e.g. `pdf`) */
  key: z.string().optional(),
  category: z.string().optional(),
  hash: z.string(),
  meta: z.record(z.string(), z.string()),
  mime: z.string(),
  size: z.number().int(),
  /** false while the bytes of a file announced by its hash have not come: `url` is then where to PUT them */
  stored: z.boolean(),
  embeddable: z.boolean(),
  private: z.boolean(),
  url: z.string(),
});

/**
 * A file for an entry, as the hosted service takes it (PUT with an id, POST without):
 * the bytes as base64 `data`; or, hash first, no `data` but `sha256`, `size` and
 * `mime`, answered with `stored: false` and the `url` to PUT the bytes to unless the
 * company already holds them. Also as multipart/form-data, the file in the part `data`.
 */
export const fileBody = z
  .object({
    name: z.string().max(1024),
    desc: z.string().max(2000).optional(),
    mime: mime.optional(),
    /** string values, as the hosted service keeps them */
    meta: z.record(z.string().max(255), z.string().max(10_000)).optional(),
    key: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, 'must be 1-64 characters of A-Z a-z 0-9 . _ -').optional(),
    category: z.string().regex(/^(?:[a-z][a-z0-9-]{0,31})?$/, 'must be a lower-case label like format or attachment').optional(),
    embeddable: z.boolean().optional(),
    private: z.boolean().optional(),
    /** SHA-256 hex of the bytes: with data, a mismatch is refused; without, the file is announced by it */
    sha256: sha256.optional(),
    /** the desk's earlier name for sha256 */
    hash: sha256.optional(),
    size: z.number().int().min(0).optional(),
    data: base64.optional(),
  })
  .superRefine((body, ctx) => {
    const issue = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
    if (body.sha256 && body.hash && body.sha256 !== body.hash) issue('hash', 'must equal sha256 when both are given');
    if (body.data === undefined) {
      if (!body.sha256 && !body.hash) issue('sha256', 'is required without data (announce the file by its hash)');
      if (body.size === undefined) issue('size', 'is required without data');
      if (body.mime === undefined) issue('mime', 'is required without data');
    }
  });

/** multipart/form-data: the file in the part `data`, its file name and type standing in for `name` and `mime`. */
export const fileBodyForms = { multipart: { file: 'data', filename: 'name', mediaType: 'mime' } } as const;

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

/** A party in a snippet, as the hosted service's snippets carry it. */
const snippetParty = z.object({
  uuid: z.string().optional(),
  name: z.string().optional(),
  alias: z.string().optional(),
  country: z.string().optional(),
  tax_code: z.string().optional(),
});

/**
 * The hosted service's snippet of a document (silo/hosted-snippet.ts): an invoice's
 * number, date, parties and GOBL totals by their GOBL names (`total` is before tax,
 * `payable` what is due), a party's name and tax code; `title` always, from the desk.
 */
export const snippetSchema = z.object({
  title: z.string().optional(),
  uuid: z.string().optional(),
  type: z.string().optional(),
  series: z.string().optional(),
  code: z.string().optional(),
  currency: z.string().optional(),
  issue_date: z.string().optional(),
  due_date: z.string().optional(),
  supplier: snippetParty.optional(),
  customer: snippetParty.optional(),
  sum: z.string().optional(),
  total: z.string().optional(),
  tax: z.string().optional(),
  total_with_tax: z.string().optional(),
  payable: z.string().optional(),
  p_series: z.string().optional(),
  p_code: z.string().optional(),
  p_uuid: z.string().optional(),
  name: z.string().optional(),
  alias: z.string().optional(),
  country: z.string().optional(),
  tax_code: z.string().optional(),
});

export const entrySchema = z.object({
  id: z.string(),
  key: z.string().optional(),
  created_at: z.string(),
  updated_at: z.string(),
  /** the version of the entry's data, a string as the hosted service types it; sent back as If-Match (`"4"`) */
  version: z.string(),
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
  snippet: snippetSchema,
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
  /** 10 to 100, as the hosted lists take it: outside that a 422 (the handler checks the bounds) */
  limit: hostedLimit,
  ascending: queryBool.default(false),
};

export const patchContentTypes = ['application/json', 'application/merge-patch+json', 'application/json-patch+json'] as const;

const jsonPatchOperation = z.object({
  op: z.enum(['add', 'remove', 'replace', 'move', 'copy', 'test']),
  path: z.string(),
  from: z.string().optional(),
  value: z.unknown().optional(),
});

const entryCreateShape = {
  /** a GOBL envelope or document (partial data is built: a document without totals is calculated); with previous_id, a patch of the correction */
  data: z.union([jsonObject, z.array(jsonPatchOperation)]).optional(),
  key: label(255).optional(),
  folder: folder.optional(),
  tags: tags.optional(),
  state: state.optional(),
  /** store a document with faults as given, flagged `invalid` with its faults, instead of refusing it */
  allow_invalid: z.boolean().optional(),
  /** with previous_id: how `data` changes the correction (a merge patch or a JSON patch over the envelope) */
  content_type: z.enum(patchContentTypes).optional(),
  /** the entry to correct, with `correct` */
  previous_id: uuid.optional(),
  /** GOBL correction options for previous_id, e.g. {"type": "credit-note", "reason": "…"} */
  correct: jsonObject.optional(),
  /** sign the envelope with this instance's key once built */
  sign: z.boolean().optional(),
};

type EntryCreateFields = { data?: unknown; content_type?: string; previous_id?: string; correct?: unknown };

/** Which members go together: a correction needs previous_id and correct, a new document needs data. */
function checkCreateFields(body: EntryCreateFields, ctx: z.RefinementCtx): void {
  const issue = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
  if (body.previous_id === undefined) {
    if (body.data === undefined) issue('data', 'is required (or previous_id with correct, to correct an entry)');
    else if (Array.isArray(body.data)) issue('data', 'must be a GOBL envelope or document (a patch needs previous_id)');
    if (body.content_type !== undefined && body.content_type !== 'application/json') issue('content_type', 'a patch applies to the correction of previous_id: give previous_id');
    if (body.correct !== undefined) issue('correct', 'corrects the entry named by previous_id: give previous_id');
  } else if (body.correct === undefined) {
    issue('correct', 'is required with previous_id: the GOBL correction options, e.g. {"type": "credit-note"}');
  }
}

export const entryCreateBody = closedObject(entryCreateShape).superRefine(checkCreateFields);

/** What the entry list sorts by: when the entry was stored, or one of the document's columns. */
export const entrySorts = ['created_at', 'issue_date', 'due_date', 'number', 'supplier', 'customer', 'net', 'tax', 'total', 'state'] as const;
export type EntrySort = (typeof entrySorts)[number];
/** The columns the entry list can show. */
export const entryColumns = ['issue_date', 'due_date', 'number', 'type', 'supplier', 'customer', 'net', 'tax', 'total', 'state', 'tags', 'created_at', 'folder'] as const;

const entryFilterShape = {
  folder: folder.optional(),
  state: state.optional(),
  tag: tag.optional(),
  /** the document's issue date range, inclusive (YYYY-MM-DD) */
  date_from: isoDate.optional(),
  date_to: isoDate.optional(),
};

/** A saved view of the entry list: what it is narrowed to, which columns show, how it is sorted. */
const viewBody = closedObject({
  name: label(100),
  filters: closedObject({ ...entryFilterShape, q: z.string().min(1).max(200).optional() }).default({}),
  columns: z.array(z.enum(entryColumns)).min(1, 'must show at least one column').max(entryColumns.length)
    .refine((list) => new Set(list).size === list.length, 'must not repeat a column'),
  sort: closedObject({ by: z.enum(entrySorts), ascending: z.boolean() }).default({ by: 'created_at', ascending: false }),
});

export const viewSchema = z.object({
  id: z.string(),
  name: z.string(),
  filters: z.object({ ...entryFilterShape, q: z.string().optional() }),
  columns: z.array(z.enum(entryColumns)),
  sort: z.object({ by: z.enum(entrySorts), ascending: z.boolean() }),
  created_at: z.string(),
  updated_at: z.string(),
});

const moneySums = z.object({ currency: z.string(), count: z.number().int(), net: z.string(), tax: z.string(), total: z.string() });

/** A comma-separated list of entry ids in a query string. */
const idList = z
  .string()
  .max(100 * 37)
  .transform((v) => v.split(',').filter(Boolean))
  .pipe(z.array(uuid).min(1, 'must name at least one id').max(100, 'at most 100 ids'));
const importItem = closedObject({ ...entryCreateShape, id: uuid.optional() }).superRefine(checkCreateFields);

export const siloOperations = {
  listEntries: defineOperation({
    method: 'GET',
    path: '/silo/v1/entries',
    summary: 'List the entries of the current company, newest first, with keyset cursors',
    area: 'silo',
    access: ['owner', 'user', 'app'],
    query: z.object({
      ...entryFilterShape,
      /** entries holding the document with this uuid (e.g. the invoice a credit note's preceding[] names) */
      doc_uuid: uuid.optional(),
      /** order by this column (then created_at and id); entries without a value come last either way */
      sort: z.enum(entrySorts).default('created_at'),
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
    body: closedObject({
      entries: z.array(importItem).min(1).max(1000, 'at most 1000 entries a call'),
      /**
       * a document the company already holds (the same digest, or for a scanned file the same
       * bytes): `store` stores it again and names its twin in `duplicate_of`; `skip` stores
       * nothing and answers `duplicate` (send the items again with `store` to keep copies)
       */
      on_duplicate: z.enum(['store', 'skip']).default('store'),
    }),
    maxBody: 50 * 1024 * 1024,
    output: z.object({
      results: z.array(
        z.object({
          index: z.number().int(),
          status: z.enum(['created', 'exists', 'duplicate', 'error']),
          id: z.string().optional(),
          error: z.object({
            key: z.string(),
            code: z.string(),
            message: z.string(),
            fields: z.record(z.string(), z.string()).optional(),
            faults: z.array(fault).optional(),
          }).optional(),
          /** the entry already holding this document */
          duplicate_of: z.string().optional(),
          /** how it was recognised: the same document digest, or the same file bytes */
          duplicate_by: z.enum(['digest', 'file']).optional(),
        }),
      ),
      created: z.number().int(),
      existing: z.number().int(),
      /** items not stored because the company holds them already (on_duplicate: skip) */
      duplicates: z.number().int(),
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
    summary: 'Store a GOBL envelope or document as a new entry (partial data is built; previous_id + correct makes a correction)',
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
    headers: entryPreconditionHeaders,
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
    headers: entryPreconditionHeaders,
    body: closedObject({
      content_type: z.enum(patchContentTypes).default('application/json'),
      data: z.union([jsonObject, z.array(jsonPatchOperation)]).optional(),
      folder: folder.optional(),
      tags: tags.optional(),
      state: state.optional(),
      allow_invalid: z.boolean().optional(),
      /** sign the envelope with this instance's key (after the change, if any) */
      sign: z.boolean().optional(),
    }),
    output: entrySchema,
  }),
  listRelated: defineOperation({
    method: 'GET',
    path: '/silo/v1/entries/{id}/related',
    summary: 'Entries related both ways: those whose document names this one (by uuid, or by code, series and date) and those it names',
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
    summary: 'Full-text search over titles and document text; an exact document number comes first',
    area: 'silo',
    access: ['owner', 'user', 'app'],
    query: z
      .object({
        /** the text to find, as the hosted service names it; `query` is taken too */
        q: z.string().min(1, 'must not be empty').max(200).optional(),
        query: z.string().min(1, 'must not be empty').max(200).optional(),
        ...entryFilterShape,
        limit: hostedLimit,
        offset: queryInt(0, 10_000).default(0),
      })
      .superRefine((q, ctx) => {
        if (q.q === undefined && q.query === undefined) ctx.addIssue({ code: 'custom', path: ['q'], message: 'is required: the text to search for' });
      }),
    output: z.object({
      list: z.array(entrySchema),
      /** the text searched for (the hosted service's name for it) */
      query: z.string(),
      folder: z.string().optional(),
      limit: z.number().int(),
      offset: z.number().int(),
      next_offset: z.number().int().optional(),
    }),
  }),
  putAttachment: defineOperation({
    method: 'PUT',
    path: '/silo/v1/entries/{entry_id}/files/{id}',
    summary: 'Store a file of the entry under a client-chosen id: base64 data, multipart, or announced by its hash (then PUT the bytes to its url)',
    area: 'silo',
    access: ['owner', 'user', 'app'],
    params: z.object({ entry_id: uuid, id: attachmentId }),
    body: fileBody,
    bodyForms: fileBodyForms,
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
  sumEntries: defineOperation({
    method: 'GET',
    path: '/silo/v1/entry-sums',
    summary: 'Net, tax and total of the matching entries per currency, exactly (a credit note counts negative)',
    area: 'silo',
    access: ['owner', 'user', 'app'],
    query: z.object({ ...entryFilterShape, q: z.string().min(1).max(200).optional() }),
    output: z.object({ count: z.number().int(), list: z.array(moneySums) }),
  }),
  entryNames: defineOperation({
    method: 'GET',
    path: '/silo/v1/entry-names',
    summary: 'What to call entries (document number and title) by id, for lists of jobs and results; unknown ids are left out',
    area: 'silo',
    access: ['owner', 'user', 'app'],
    query: z.object({ ids: idList }),
    output: z.object({
      list: z.array(z.object({ id: z.string(), title: z.string(), number: z.string().optional(), type: z.string().optional(), doc_schema: z.string() })),
    }),
  }),
  listViews: defineOperation({
    method: 'GET',
    path: '/silo/v1/views',
    summary: 'Saved views of the entry list (filters, columns, sort) of the current company, by name',
    area: 'silo',
    access: ['owner', 'user', 'app'],
    output: z.object({ list: z.array(viewSchema) }),
  }),
  putView: defineOperation({
    method: 'PUT',
    path: '/silo/v1/views/{id}',
    summary: 'Save a view of the entry list under a client-chosen UUID (creates or replaces it); names are unique per company',
    area: 'silo',
    access: ['owner', 'user'],
    params: z.object({ id: uuid }),
    body: viewBody,
    output: viewSchema,
  }),
  deleteView: defineOperation({
    method: 'DELETE',
    path: '/silo/v1/views/{id}',
    summary: 'Delete a saved view',
    area: 'silo',
    access: ['owner', 'user'],
    params: z.object({ id: uuid }),
    output: z.object({ deleted: z.number().int() }),
  }),
};
