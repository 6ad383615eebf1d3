import { z } from 'zod';
import { defineOperation } from '../operation.ts';
import { label, listLimit, queryBool, uuid } from './common.ts';

// No control or format characters: a code must print the same everywhere.
const PRINTABLE = /^[^\p{Cc}\p{Cf}\p{Zl}\p{Zp}]*$/u;

/**
 * Prefix and suffix end up in the document's `code` (GOBL allows 64 characters
 * with no leading or trailing space): 20 + up to 20 digits + 20 always fits.
 */
const prefix = z
  .string()
  .max(20, 'must be at most 20 characters')
  .regex(PRINTABLE, 'must not contain control characters')
  .regex(/^(?!\s)/, 'must not start with a space');
const suffix = z
  .string()
  .max(20, 'must be at most 20 characters')
  .regex(PRINTABLE, 'must not contain control characters')
  .regex(/(?<!\s)$/, 'must not end with a space');
/** the series' own short code, written to a document's `series` */
const seriesCode = z
  .string()
  .max(32, 'must be at most 32 characters')
  .regex(/^(?:[^\s\p{Cc}\p{Cf}\p{Zl}\p{Zp}](?:[^\p{Cc}\p{Cf}\p{Zl}\p{Zp}]*[^\s\p{Cc}\p{Cf}\p{Zl}\p{Zp}])?)?$/u, 'must be printable, without leading or trailing spaces');
const description = z
  .string()
  .max(2000, 'must be at most 2000 characters')
  .regex(/^(?:[^\p{Cc}\p{Cf}]|[\r\n\t])*$/u, 'must not contain control characters other than new lines and tabs');
const jws = z
  .string()
  .max(16_384, 'must be at most 16384 characters')
  .regex(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/, 'must be a compact JWS (three base64url parts separated by dots)');
const metaKey = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, 'must be 1-64 characters of A-Z a-z 0-9 . _ -');
const entryMeta = z
  .record(metaKey, z.string().max(2000, 'must be at most 2000 characters'))
  .refine((m) => Object.keys(m).length <= 50, 'at most 50 keys');

export const seriesSchema = z.object({
  id: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  name: z.string(),
  description: z.string(),
  code: z.string(),
  prefix: z.string(),
  padding: z.number().int(),
  suffix: z.string(),
  start: z.number().int(),
  last_index: z.number().int(),
  last_entry_id: z.string().optional(),
  issuer: z.string(),
  sigs: z.array(z.string()),
  /** numbering waits: `restored` until this instance has caught up with its remote, `fork` until someone releases it */
  hold: z.object({ reason: z.enum(['restored', 'fork']), since: z.string() }).optional(),
});

export const seriesEntrySchema = z.object({
  id: z.string(),
  series_id: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  index: z.number().int(),
  code: z.string(),
  meta: z.record(z.string(), z.string()),
  previous_id: z.string().optional(),
  sigs: z.array(z.string()),
});

const publicJwk = z.object({
  kty: z.literal('EC'),
  crv: z.literal('P-256'),
  x: z.string(),
  y: z.string(),
  kid: z.string(),
  alg: z.literal('ES256'),
  use: z.literal('sig'),
});

const seriesParams = z.object({ id: uuid });
const entryParams = z.object({ series_id: uuid, id: uuid });

export const seriesBody = z.object({
  id: uuid.optional(),
  name: label(200),
  description: description.default(''),
  code: seriesCode.default(''),
  prefix: prefix.default(''),
  padding: z.number().int('must be a whole number').min(0, 'must be at least 0').max(20, 'must be at most 20').default(0),
  suffix: suffix.default(''),
  start: z.number().int('must be a whole number').min(0, 'must be at least 0').max(Number.MAX_SAFE_INTEGER).default(1),
  /** the client's JWS over the series' key properties, kept in `sigs` */
  sig: jws.optional(),
});

export const seriesPatchBody = z
  .object({
    name: label(200),
    description,
    code: seriesCode,
    prefix,
    padding: seriesBody.shape.padding.unwrap(),
    suffix,
    start: seriesBody.shape.start.unwrap(),
  })
  .partial()
  .strict();

export const seriesEntryBody = z.object({
  id: uuid.optional(),
  meta: entryMeta.optional(),
  /** the client's JWS, kept in `sigs` after the service's */
  sig: jws.optional(),
});

export const sequenceOperations = {
  listSeries: defineOperation({
    method: 'GET',
    path: '/sequence/v1/series',
    summary: 'All numbering series of the current company, oldest first',
    area: 'sequence',
    access: ['owner', 'user', 'app'],
    output: z.object({ list: z.array(seriesSchema) }),
  }),
  getSeries: defineOperation({
    method: 'GET',
    path: '/sequence/v1/series/{id}',
    summary: 'Fetch one series with its head (last index and entry)',
    area: 'sequence',
    access: ['owner', 'user', 'app'],
    params: seriesParams,
    output: seriesSchema,
  }),
  putSeries: defineOperation({
    method: 'PUT',
    path: '/sequence/v1/series/{id}',
    summary: 'Create a series under a client-chosen UUID (idempotent); numbering is fixed once it has entries',
    area: 'sequence',
    access: ['owner', 'user', 'app'],
    params: seriesParams,
    body: seriesBody,
    maxBody: 64 * 1024,
    output: seriesSchema,
  }),
  patchSeries: defineOperation({
    method: 'PATCH',
    path: '/sequence/v1/series/{id}',
    summary: 'Rename or re-describe a series; its numbering only while it has issued no entry',
    area: 'sequence',
    access: ['owner', 'user', 'app'],
    params: seriesParams,
    body: seriesPatchBody,
    maxBody: 64 * 1024,
    output: seriesSchema,
  }),
  listSeriesEntries: defineOperation({
    method: 'GET',
    path: '/sequence/v1/series/{series_id}/entries',
    summary: 'Entries of a series by index (ascending unless ascending=false), with keyset cursors',
    area: 'sequence',
    access: ['owner', 'user', 'app'],
    params: z.object({ series_id: uuid }),
    query: z.object({
      cursor: z.string().max(512).optional(),
      limit: listLimit,
      ascending: queryBool.default(true),
    }),
    output: z.object({
      series_id: z.string(),
      list: z.array(seriesEntrySchema),
      limit: z.number().int(),
      cursor: z.string().optional(),
      next_cursor: z.string().optional(),
    }),
  }),
  getSeriesEntry: defineOperation({
    method: 'GET',
    path: '/sequence/v1/series/{series_id}/entries/{id}',
    summary: 'Fetch one entry of a series',
    area: 'sequence',
    access: ['owner', 'user', 'app'],
    params: entryParams,
    output: seriesEntrySchema,
  }),
  putSeriesEntry: defineOperation({
    method: 'PUT',
    path: '/sequence/v1/series/{series_id}/entries/{id}',
    summary: 'Issue the next number of the series under a client-chosen UUID (idempotent), signed and chained',
    area: 'sequence',
    access: ['owner', 'user', 'app'],
    params: entryParams,
    body: seriesEntryBody,
    maxBody: 256 * 1024,
    output: seriesEntrySchema,
  }),
  verifySeries: defineOperation({
    method: 'GET',
    path: '/sequence/v1/series/{id}/verify',
    summary: 'Walk the chain of a series and name the first entry that was altered, removed or reordered',
    area: 'sequence',
    access: ['owner', 'user', 'app'],
    params: seriesParams,
    output: z.object({
      valid: z.boolean(),
      count: z.number().int(),
      broken: z.object({ id: z.string(), reason: z.string() }).optional(),
    }),
  }),
  releaseSeriesHold: defineOperation({
    method: 'POST',
    path: '/sequence/v1/series/{id}/release-hold',
    summary: 'Let this instance number a held series again (after a fork was sorted out); the owner decides',
    area: 'sequence',
    access: ['owner'],
    params: seriesParams,
    output: seriesSchema,
  }),
  getKeys: defineOperation({
    method: 'GET',
    path: '/sequence/v1/keys',
    summary: "The instance's public signing keys as a JWKS (keys replaced by a rotation stay)",
    area: 'sequence',
    access: 'public',
    output: z.object({ keys: z.array(publicJwk) }),
  }),
};
