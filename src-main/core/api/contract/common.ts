import { z } from 'zod';
import type { HashedBytes } from '../../files/hashed-bytes.ts';
import { isHashedBytes } from '../../files/hashed-bytes-mark.ts';

// Any 8-4-4-4-12 hex: GOBL documents in the wild carry ids of no RFC version.
export const uuid = z.guid({ message: 'must be a UUID' }).transform((v) => v.toLowerCase());
export const timestamp = z.iso.datetime({ offset: true, message: 'must be an ISO 8601 timestamp' });

/** Query strings carry text; IPC carries real values. Both are accepted. */
export const queryBool = z
  .union([z.boolean(), z.enum(['true', 'false', '1', '0'])])
  .transform((v) => v === true || v === 'true' || v === '1');

export const queryInt = (min: number, max: number) =>
  z
    .union([z.number(), z.string().regex(/^-?\d+$/, 'must be a whole number')])
    .transform((v) => Number(v))
    .pipe(z.number().int().min(min, `must be at least ${min}`).max(max, `must be at most ${max}`));

export const listLimit = queryInt(1, 100).default(20);

/** A problem with a document (the hosted service's SiloFault), with what GOBL calculates for a figure. */
export const fault = z.object({
  code: z.string(),
  message: z.string(),
  provider: z.string(),
  /** JSON paths from the envelope root, e.g. `$.doc.totals.payable`; empty when the problem has no place */
  paths: z.array(z.string()),
  /** for a figure GOBL calculates differently: what the document states… */
  stated: z.string().optional(),
  /** …and what GOBL calculates */
  calculated: z.string().optional(),
});

/**
 * A request body that takes exactly these members: an unknown one is a 422 that
 * names it, never silently dropped.
 */
export const closedObject = <S extends z.ZodRawShape>(shape: S) =>
  z.strictObject(shape, {
    error: (issue) =>
      issue.code === 'unrecognized_keys'
        ? `unknown field${issue.keys.length === 1 ? '' : 's'} ${issue.keys.map((k) => JSON.stringify(k)).join(', ')}: this operation does not take ${issue.keys.length === 1 ? 'it' : 'them'}`
        : undefined,
  });

/** A label users see and filter by: printable, no control characters, bounded. */
export const label = (max: number) =>
  z
    .string()
    .min(1, 'must not be empty')
    .max(max, `must be at most ${max} characters`)
    .regex(/^[^\p{Cc}\p{Cf}]+$/u, 'must not contain control characters');

export const folder = label(100).regex(/^[^/\\].*[^/\\]$|^[^/\\]$/, 'must not start or end with a slash');
export const tag = label(64);
export const tags = z.array(tag).max(100, 'at most 100 tags');
export const state = z.string().regex(/^[a-z][a-z0-9_-]{0,31}$/, 'must be a lower-case label (a-z, 0-9, _ or -)');

export const jsonObject = z.record(z.string(), z.unknown());

/** A lower-case hex SHA-256, as files and sync name bytes. */
export const sha256 = z.string().regex(/^[0-9a-f]{64}$/, 'must be a lower-case hex SHA-256');

const WHITESPACE = [' ', '\n', '\r', '\t', '\f'];

/**
 * Standard base64, padding optional: what /^[A-Za-z0-9+/]*={0,2}$/ says (and a length a
 * decoder can read), checked by the platform's decoder. That pattern took 57 ms over a sync
 * request of 1,000 files of 8 KiB, the remote's longest block while taking a push, and 350 ms
 * over a 50 MB attachment; atob takes 5 and 70. atob skips whitespace, which the pattern refuses.
 */
export function isBase64(text: string): boolean {
  if (WHITESPACE.some((c) => text.includes(c))) return false;
  try {
    atob(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * Bytes written as base64 in a JSON body (the handler reads them with bytesOf). A large one
 * reaches the schema decoded already, as HashedBytes: the HTTP adapter takes it from the
 * body's bytes, and both adapters decode a long text a part at a time (bytes-members.ts),
 * which one check here and one decode in the handler would each do in one long block.
 */
export const base64 = z
  .custom<string | HashedBytes>((value) => isHashedBytes(value) || (typeof value === 'string' && isBase64(value)), 'must be base64')
  .meta({ type: 'string', contentEncoding: 'base64' });
