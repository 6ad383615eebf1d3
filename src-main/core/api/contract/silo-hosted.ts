import { z } from 'zod';
import { defineOperation } from '../operation.ts';
import { base64, fault, queryBool, timestamp, uuid } from './common.ts';
import { attachmentSchema, entryPageSchema, fileBody, fileBodyForms } from './silo.ts';
import { hostedLimit } from './transform-query.ts';

/** A state an entry was in, from when: the hosted service's SiloState. */
export const entryStateSchema = z.object({
  /** the entry id and the state's time: `<entry id>:<at>` */
  id: z.string(),
  key: z.string(),
  /** when the entry took this state */
  created_at: z.string(),
  /** who set it: `api` (a call to the states API), `silo` (any other change of the entry's state) */
  src: z.string(),
  /** the token that set it through the API */
  src_id: z.string().optional(),
  notes: z.string().optional(),
  meta: z.record(z.string(), z.string()),
  faults: z.array(fault),
});

const stateBody = z.object({
  /** the state, a lower-case label (`paid`, `sent`…) */
  key: z.string().regex(/^[a-z][a-z0-9_-]{0,31}$/, 'must be a lower-case label (a-z, 0-9, _ or -)'),
  meta: z.record(z.string().max(255), z.string().max(10_000)).optional(),
  notes: z.string().max(10_000).optional(),
});

const stateParams = z.object({ entry_id: uuid });

export const siloHostedOperations = {
  listEntryStates: defineOperation({
    method: 'GET',
    path: '/silo/v1/entries/{entry_id}/states',
    summary: 'The states the entry has been in, newest first: the current one, then each before it',
    area: 'silo',
    access: ['owner', 'user', 'app'],
    params: stateParams,
    output: z.object({ list: z.array(entryStateSchema) }),
  }),
  createEntryState: defineOperation({
    method: 'POST',
    path: '/silo/v1/entries/{entry_id}/states',
    summary: "Set the entry's state now, with notes and meta kept in its history",
    area: 'silo',
    access: ['owner', 'user', 'app'],
    params: stateParams,
    body: stateBody,
    output: entryStateSchema,
  }),
  putEntryState: defineOperation({
    method: 'PUT',
    path: '/silo/v1/entries/{entry_id}/states/{at}',
    summary: "Record a state the entry took at a given time (idempotent under the time); the newest state is the entry's",
    area: 'silo',
    access: ['owner', 'user', 'app'],
    params: z.object({ entry_id: uuid, at: timestamp }),
    body: stateBody,
    output: entryStateSchema,
  }),
  findRelated: defineOperation({
    method: 'GET',
    path: '/silo/v1/entries/related',
    summary: 'Entries whose document mentions the uuid (e.g. the credit notes whose preceding[] names an invoice)',
    area: 'silo',
    access: ['owner', 'user', 'app'],
    query: z.object({
      uuid,
      /** where in the document the uuid is mentioned, e.g. `preceding` */
      context: z.string().max(200).optional(),
      created_at: timestamp.optional(),
      cursor: z.string().max(512).optional(),
      limit: hostedLimit,
      ascending: queryBool.default(false),
    }),
    output: entryPageSchema,
  }),
  createFile: defineOperation({
    method: 'POST',
    path: '/silo/v1/entries/{entry_id}/files',
    summary: 'Add a file to the entry under a new id: base64 data, multipart, or announced by its hash (then PUT the bytes to its url)',
    area: 'silo',
    access: ['owner', 'user', 'app'],
    params: z.object({ entry_id: uuid }),
    body: fileBody,
    bodyForms: fileBodyForms,
    maxBody: 70 * 1024 * 1024,
    output: attachmentSchema,
  }),
  uploadFile: defineOperation({
    method: 'PUT',
    path: '/silo/v1/uploads/{token}',
    summary: "The bytes of a file announced by its hash, sent to the `url` its announcement answered (the url is the credential; it expires after a day)",
    area: 'silo',
    access: 'public',
    params: z.object({ token: z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'must be an upload token') }),
    body: z.object({ data: base64 }),
    bodyForms: { raw: { file: 'data' } },
    maxBody: 50 * 1024 * 1024,
    output: attachmentSchema,
  }),
};
