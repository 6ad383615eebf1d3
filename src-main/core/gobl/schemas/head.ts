// The envelope and its header (head/header, head/stamp, head/link, dsig/*).
import { z } from 'zod';
import { ENVELOPE_SCHEMA } from '../doc-types.ts';
import { code, key, listOf, meta, object, stringList, text, uri, uuid } from './primitives.ts';

export const digest = object({
  alg: text,
  val: text,
});

export const stamp = object({
  prv: key,
  val: text,
});

const link = object({
  uuid: uuid.nullish(),
  category: z.enum(['format', 'portal', 'request', 'response', 'agreement', 'verification', 'attachment'], {
    error: 'must be one of format, portal, request, response, agreement, verification, attachment',
  }).nullish(),
  key,
  code: code.nullish(),
  title: text.nullish(),
  description: text.nullish(),
  mime: text.nullish(),
  digest: digest.nullish(),
  url: uri,
  meta: meta.nullish(),
});

export const header = object({
  uuid,
  dig: digest,
  stamps: listOf(stamp).nullish(),
  links: listOf(link).nullish(),
  tags: stringList.nullish(),
  meta: meta.nullish(),
  notes: text.nullish(),
  from: uri.nullish(),
  to: uri.nullish(),
  ignore: stringList.nullish(),
  // Older GOBL releases flagged unsigned drafts in the header.
  draft: z.boolean({ error: 'must be true or false' }).nullish(),
});

// A signature is a JWS in compact serialisation: three base64url parts.
const compactJws = z
  .string({ error: 'must be a compact JWS' })
  .regex(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+$/, { error: 'must be a compact JWS (header.payload.signature)' });

// The document itself is checked by its own schema (see validate.ts); here it
// only has to be an object that says what it is.
export const envelope = object({
  $schema: z.literal(ENVELOPE_SCHEMA, { error: `must be "${ENVELOPE_SCHEMA}"` }),
  head: header,
  doc: object({ $schema: uri }),
  sigs: listOf(compactJws).nullish(),
});
