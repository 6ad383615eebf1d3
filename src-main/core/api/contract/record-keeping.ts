import { z } from 'zod';
import { defineOperation } from '../operation.ts';
import { closedObject, jsonObject, listLimit, queryInt, uuid } from './common.ts';
import { attachmentSchema, entrySchema } from './silo.ts';

// Trash, entry history and the audit log (issue 16): nothing is lost, every version is kept, every change is on record.

const all = ['owner', 'user', 'app'] as const;
const cursor = z.string().max(512).optional();

const actorSchema = z.object({
  /** http (a token), ipc (the desktop window), sync (another instance), workflow (a job's step), system (the service itself) */
  via: z.enum(['http', 'ipc', 'sync', 'workflow', 'system']),
  /** the token id, `desktop`, the other instance's id, the job id, or what the service was doing */
  id: z.string(),
  name: z.string(),
});

const trashItemSchema = z.object({
  kind: z.enum(['entry', 'file']),
  /** the entry id, or the file's id in the trash (trash_id) */
  id: z.string(),
  entry_id: z.string(),
  trashed_at: z.string(),
  /** when the retention purges it for good */
  purge_at: z.string(),
  trashed_by: actorSchema,
  /** the document's title (for a file: its entry's) */
  title: z.string(),
  number: z.string().optional(),
  doc_schema: z.string().optional(),
  folder: z.string().optional(),
  state: z.string().optional(),
  signed: z.boolean().optional(),
  /** how many files the trashed entry holds */
  files: z.number().int().optional(),
  /** a trashed file: its id on the entry, name and type */
  file_id: z.string().optional(),
  name: z.string().optional(),
  mime: z.string().optional(),
  /** bytes: the file's, or all of an entry's files */
  size: z.number().int(),
});

/** A version of an entry, in the hosted service's SiloDataVersion shape (`version`, `at`, `signed`, `invalid`, `src`, `src_id`) and more. */
const versionSchema = z.object({
  /** the entry's `version` when this version was made (what If-Match names) */
  version: z.string(),
  at: z.string(),
  /** created, changed, trashed, restored (from the trash), reverted (a past version restored), recorded (history began) */
  action: z.string(),
  /** what this version changed: document, state, folder, tags, key, trash */
  changed: z.array(z.string()),
  state: z.string(),
  folder: z.string(),
  tags: z.array(z.string()),
  key: z.string().optional(),
  digest: z.object({ alg: z.string(), val: z.string() }),
  signed: z.boolean(),
  invalid: z.boolean(),
  trashed: z.boolean(),
  /** a reverted version: the version it brought back */
  reverted_from: z.string().optional(),
  /** where it came from (the hosted service's `src`): http, ipc, sync, workflow, system */
  src: z.string(),
  /** who: a token id, `desktop`, an instance id, a job id */
  src_id: z.string(),
  actor: actorSchema,
});

const changeSchema = z.object({
  /** a JSON path of the envelope (`$.doc.totals.payable`), or a label: state, folder, tags, key, trash */
  path: z.string(),
  kind: z.enum(['added', 'removed', 'changed']),
  before: z.unknown().optional(),
  after: z.unknown().optional(),
  /** a money figure of the document, in this currency */
  currency: z.string().optional(),
});

const entryParams = z.object({ id: uuid });
const versionParams = z.object({ id: uuid, version: z.string().min(1).max(64) });
const fileParams = z.object({
  entry_id: uuid,
  id: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/, 'must be 1-128 characters of A-Z a-z 0-9 . _ -'),
});

const auditRowSchema = z.object({
  /** the row's number, increasing: the log is never rewritten */
  seq: z.number().int(),
  at: z.string(),
  via: z.enum(['http', 'ipc', 'sync', 'workflow', 'system']),
  actor: z.object({ id: z.string(), name: z.string() }),
  /** the API operation, when the change was one */
  operation: z.string().optional(),
  /** entry.created, entry.changed, entry.trashed, entry.restored, entry.reverted, entry.purged, attachment.put, attachment.trashed, meta.put, workflow.saved, token.created, settings.sync… */
  action: z.string(),
  target: z.object({ kind: z.string(), id: z.string() }),
  detail: jsonObject,
});

const trashSettingsSchema = z.object({ retention_days: z.number().int() });

export const recordKeepingOperations = {
  trashEntry: defineOperation({
    method: 'DELETE',
    path: '/silo/v1/entries/{id}',
    summary: 'Move an entry, with its files and meta, to the trash (restorable until the retention purges it; a signed document is kept as it is)',
    area: 'silo',
    access: all,
    params: entryParams,
    output: trashItemSchema,
  }),
  restoreEntry: defineOperation({
    method: 'POST',
    path: '/silo/v1/entries/{id}/restore',
    summary: 'Bring an entry back from the trash, with its files and meta',
    area: 'silo',
    access: all,
    params: entryParams,
    output: entrySchema,
  }),
  trashAttachment: defineOperation({
    method: 'DELETE',
    path: '/silo/v1/entries/{entry_id}/files/{id}',
    summary: 'Move one file of an entry to the trash (restorable until the retention purges it)',
    area: 'silo',
    access: all,
    params: fileParams,
    output: trashItemSchema,
  }),
  restoreAttachment: defineOperation({
    method: 'POST',
    path: '/silo/v1/entries/{entry_id}/files/{id}/restore',
    summary: 'Put the file most recently trashed under this id back on its entry',
    area: 'silo',
    access: all,
    params: fileParams,
    output: attachmentSchema,
  }),
  listTrash: defineOperation({
    method: 'GET',
    path: '/silo/v1/trash',
    summary: 'What the trash holds, entries and files, the most recently trashed first, with keyset cursors',
    area: 'silo',
    access: all,
    query: z.object({ kind: z.enum(['entry', 'file']).optional(), cursor, limit: listLimit }),
    output: z.object({ list: z.array(trashItemSchema), limit: z.number().int(), retention_days: z.number().int(), next_cursor: z.string().optional() }),
  }),
  getTrashedEntry: defineOperation({
    method: 'GET',
    path: '/silo/v1/trash/entries/{id}',
    summary: 'An entry in the trash, whole (document, files, meta), to look at before restoring it; GET of the entry itself answers 404 while it is there',
    area: 'silo',
    access: all,
    params: entryParams,
    output: entrySchema.extend({ trashed_at: z.string(), purge_at: z.string() }),
  }),
  purgeTrash: defineOperation({
    method: 'POST',
    path: '/silo/v1/trash/purge',
    summary: 'Delete for good what the trash holds now: the items named (all or none), or everything (owner only)',
    area: 'silo',
    access: ['owner'],
    body: closedObject({
      items: z.array(closedObject({ kind: z.enum(['entry', 'file']), id: z.string().min(1).max(64) })).min(1).max(500).optional(),
    }),
    output: z.object({ purged: z.number().int() }),
  }),
  getTrashSettings: defineOperation({
    method: 'GET',
    path: '/silo/v1/trash/settings',
    summary: 'How many days the trash keeps what is put in it before purging it',
    area: 'silo',
    access: ['owner', 'user'],
    output: trashSettingsSchema,
  }),
  putTrashSettings: defineOperation({
    method: 'PUT',
    path: '/silo/v1/trash/settings',
    summary: "Set how many days the company's trash keeps what is put in it (owner only; 30 unless set)",
    area: 'silo',
    access: ['owner'],
    body: closedObject({ retention_days: queryInt(1, 3650) }),
    output: trashSettingsSchema,
  }),
  listEntryVersions: defineOperation({
    method: 'GET',
    path: '/silo/v1/entries/{id}/versions',
    summary: 'Every version of an entry, newest first: what changed, who made it and from where',
    area: 'silo',
    access: all,
    params: entryParams,
    query: z.object({ cursor, limit: listLimit }),
    output: z.object({
      entry_id: z.string(),
      /** the entry's current version */
      version: z.string(),
      list: z.array(versionSchema),
      limit: z.number().int(),
      next_cursor: z.string().optional(),
    }),
  }),
  getEntryVersion: defineOperation({
    method: 'GET',
    path: '/silo/v1/entries/{id}/versions/{version}',
    summary: "One version of an entry: its envelope (`data`, as the hosted SiloEntryData) with its labels and who made it",
    area: 'silo',
    access: all,
    params: versionParams,
    output: versionSchema.extend({ data: jsonObject }),
  }),
  diffEntryVersions: defineOperation({
    method: 'GET',
    path: '/silo/v1/entries/{id}/versions/{version}/diff',
    summary: 'What changed from one version (by default the one before) to this one, by JSON path, with money figures marked',
    area: 'silo',
    access: all,
    params: versionParams,
    query: z.object({ from: z.string().min(1).max(64).optional() }),
    output: z.object({
      entry_id: z.string(),
      from: versionSchema.optional(),
      to: versionSchema,
      changes: z.array(changeSchema),
      truncated: z.literal(true).optional(),
    }),
  }),
  restoreEntryVersion: defineOperation({
    method: 'POST',
    path: '/silo/v1/entries/{id}/versions/{version}/restore',
    summary: "Make a past version the entry's current one, as a new version (history is never rewritten; a signed document never changes)",
    area: 'silo',
    access: all,
    params: versionParams,
    output: entrySchema,
  }),
  listAudit: defineOperation({
    method: 'GET',
    path: '/silo/v1/audit',
    summary: "The company's audit log, newest first: every change, who made it, when and from where (owner only; append-only)",
    area: 'silo',
    access: ['owner'],
    query: z.object({
      cursor,
      limit: queryInt(1, 100).default(50),
      target_id: z.string().max(300).optional(),
      via: z.enum(['http', 'ipc', 'sync', 'workflow', 'system']).optional(),
      /** an action (`entry.trashed`) or its family (`entry`) */
      action: z.string().regex(/^[a-z_-]+(\.[a-z_-]+)?$/, 'must be an action like entry.trashed, or a family like entry').max(64).optional(),
    }),
    output: z.object({ list: z.array(auditRowSchema), limit: z.number().int(), next_cursor: z.string().optional() }),
  }),
  verifyAudit: defineOperation({
    method: 'GET',
    path: '/silo/v1/audit/verify',
    summary: "Check the company's audit log end to end: each row chained to the one before by SHA-256 (owner only)",
    area: 'silo',
    access: ['owner'],
    output: z.object({ ok: z.boolean(), count: z.number().int(), broken_at: z.number().int().optional() }),
  }),
};
