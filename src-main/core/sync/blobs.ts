import { readFile } from 'node:fs/promises';
import { Base64Bytes } from '../api/json-text.ts';
import { ApiError, validationError } from '../api/errors.ts';
import type { Ctx } from '../api/handler.ts';
import { nowIso } from '../clock.ts';
import type { Db } from '../db/engine.ts';
import { MAX_ATTACHMENT_BYTES } from '../silo/attachments.ts';
import { storeBlobs } from '../files/blob-writes.ts';
import { bytesOf, type HashedBytes } from '../files/hashed-bytes.ts';
import { applyInSlices } from '../db/time-slices.ts';
import { LOCAL } from '../db/write-scopes.ts';
import type { CompanyKey } from '../access/company-key.ts';

/** How much one read answer carries; the client asks again for what did not fit. */
export const READ_BUDGET_BYTES = 16 * 1024 * 1024;

/**
 * Bytes of this company only, by hash with their size: a hash counts as held when an
 * attachment of the caller's company references it and the file is here. So no company
 * learns, or reads, which files another company on the same instance holds.
 */
export async function heldSizes(ctx: Ctx, hashes: string[]): Promise<Map<string, number>> {
  if (hashes.length === 0) return new Map();
  const { db, blobs } = ctx.service;
  const rows = await db.all(
    db.q
      .selectFrom('attachments')
      .select('hash')
      .distinct()
      .where('company_id', '=', ctx.caller.companyKey)
      .where('hash', 'in', hashes),
  );
  const sizes = await Promise.all(rows.map(async (r) => [r.hash, await blobs.sizeOf(r.hash)] as const));
  return new Map(sizes.filter((held): held is readonly [string, number] => held[1] !== undefined));
}

/** Raw SQL: asked for every attachment a sync applies, where compiling a query each time shows. */
const HOLDS_SQL =
  'SELECT 1 AS held FROM attachments WHERE company_id = ? AND hash = ? UNION ALL SELECT 1 FROM sync_blob_grants WHERE company_id = ? AND hash = ? LIMIT 1';
const GRANT_SQL = 'INSERT INTO sync_blob_grants (company_id, hash, created_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING';

/**
 * The size of the bytes under `hash` when this company may reference them in an attachment
 * (it holds them already, or it sent them itself: pushed here, or pulled from its remote),
 * else undefined. Naming the hash of another company's file gives nothing, and the refusal
 * reads the same as for bytes that are nowhere, so it tells nothing either.
 */
export async function companyHeldSize(ctx: Ctx, hash: string): Promise<number | undefined> {
  const { db, blobs } = ctx.service;
  const size = await blobs.sizeOf(hash);
  if (size === undefined) return undefined;
  const company = ctx.caller.companyKey;
  return (await db.sqlFirst(HOLDS_SQL, [company, hash, company, hash])) !== undefined ? size : undefined;
}

export async function grantBlobs(db: Db, companyKey: CompanyKey, hashes: string[]): Promise<void> {
  if (hashes.length === 0) return;
  const at = nowIso();
  // Hundreds at a time land in random places of the table: in slices, others let in between.
  await applyInSlices(db, [...new Set(hashes)], (hash) => db.sqlRun(GRANT_SQL, [companyKey, hash, at]), { origin: LOCAL });
}

export async function findMissingBlobs(ctx: Ctx, hashes: string[]): Promise<{ missing: string[] }> {
  const held = await heldSizes(ctx, [...new Set(hashes)]);
  return { missing: [...new Set(hashes)].filter((h) => !held.has(h)) };
}

/** Stores bytes ahead of their records. Every hash is checked before anything is written. */
export async function putBlobs(ctx: Ctx, blobs: Array<{ hash: string; data: string | HashedBytes }>): Promise<{ stored: number }> {
  const decoded = blobs.map((blob, i) => {
    const hashed = bytesOf(blob.data);
    const size = hashed.bytes.byteLength;
    if (size > MAX_ATTACHMENT_BYTES) {
      throw new ApiError('too-large', `blob ${i} is ${size} bytes; the limit is ${MAX_ATTACHMENT_BYTES}`);
    }
    if (hashed.hash !== blob.hash) throw validationError('the bytes do not match their hash', { [`$.blobs[${i}].hash`]: `the bytes hash to ${hashed.hash}` });
    return hashed;
  });
  await storeBlobs(ctx.service.blobs, decoded);
  // Sent by this company: it may now attach them.
  await grantBlobs(ctx.service.db, ctx.caller.companyKey, decoded.map((d) => d.hash));
  return { stored: decoded.length };
}

/**
 * The files asked for, as many as READ_BUDGET_BYTES holds (one at least, whatever its size). For an
 * answer writeJson writes (HTTP), each file's base64 is written a part at a time as the answer goes
 * out (Base64Bytes, typed as the text it stands for); read from disk asynchronously either way.
 */
export async function readBlobs(ctx: Ctx, hashes: string[]): Promise<{ blobs: Array<{ hash: string; data: string }>; missing: string[] }> {
  const unique = [...new Set(hashes)];
  const held = await heldSizes(ctx, unique);
  const out: Array<{ hash: string; data: string }> = [];
  let budget = READ_BUDGET_BYTES;
  for (const hash of unique) {
    const size = held.get(hash);
    if (size === undefined) continue;
    if (out.length > 0 && size > budget) break;
    const bytes = await readFile(ctx.service.blobs.pathOf(hash));
    budget -= bytes.byteLength;
    out.push({ hash, data: ctx.writesJson ? (new Base64Bytes(bytes) as unknown as string) : bytes.toString('base64') });
  }
  return { blobs: out, missing: unique.filter((h) => !held.has(h)) };
}
