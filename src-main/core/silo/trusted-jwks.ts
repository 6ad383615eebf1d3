import { createPublicKey } from 'node:crypto';
import type { z } from 'zod';
import { ApiError, validationError } from '../api/errors.ts';
import type { Ctx, HandlersOf } from '../api/handler.ts';
import type { trustedJwk, trustedJwksOperations } from '../api/contract/trusted-jwks.ts';
import type { VerifyingJwk } from '../gobl/sign/index.ts';
import { nowIso } from '../clock.ts';
import type { Db } from '../db/engine.ts';
import { LOCAL } from '../db/write-scopes.ts';
import type { CompanyKey } from '../access/company-key.ts';

type TrustedKey = z.output<typeof trustedJwk>;

/**
 * The signers a company's owner trusts for envelope signatures: a name and the
 * public keys of its JWKS. Kept per company: a JWKS trusted in company A verifies
 * nothing of company B. Only owners read or change the list (contract access), and
 * only owners change it through sync too (the write paths below refuse anyone else).
 * The list syncs like any record (kind `trusted_jwks`), so a document signed by a
 * signer trusted on one instance verifies on every instance of the company.
 */
export async function trustedJwksKeys(db: Db, companyKey: CompanyKey): Promise<VerifyingJwk[]> {
  return (await db.all(db.q.selectFrom('trusted_jwks').select('keys').where('company_id', '=', companyKey))).flatMap(
    (row) => JSON.parse(row.keys) as VerifyingJwk[],
  );
}

export type TrustedJwksRow = { id: string; name: string; keys: string; created_at: string; updated_at: string };

export const trustedJwksView = (row: TrustedJwksRow) => ({
  id: row.id,
  name: row.name,
  keys: JSON.parse(row.keys) as TrustedKey[],
  created_at: row.created_at,
  updated_at: row.updated_at,
});

/** Ids are the company's own: another company may use the same one without either knowing. */
export function findTrustedJwks(db: Db, companyKey: CompanyKey, id: string): Promise<TrustedJwksRow | undefined> {
  return db.first(db.q.selectFrom('trusted_jwks').selectAll().where('company_id', '=', companyKey).where('id', '=', id));
}

/** A key that does not name a point on P-256 would verify nothing; refused so the owner knows. */
function refuseBadPoints(keys: TrustedKey[]): void {
  keys.forEach((jwk, i) => {
    try {
      createPublicKey({ key: { kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y }, format: 'jwk' });
    } catch {
      throw validationError(`key ${i} is not a P-256 public key`, { [`$.keys[${i}]`]: 'x and y are not a point on P-256' });
    }
  });
}

/** Whom a document is accepted from is the owner's call, through the API, a push or a resolved conflict alike. */
function requireOwner(ctx: Ctx): void {
  if (ctx.caller.kind !== 'owner') throw new ApiError('forbidden', "only the company's owner changes its trusted signers");
}

/**
 * Trusts a signer under `id` (replacing the keys held under it), in the caller's
 * transaction (its trigger records the change for sync). `createdAt`: kept as the instance
 * that first stored it says (a synced signer lists in the same place everywhere).
 */
export async function saveTrustedJwks(ctx: Ctx, id: string, input: { name: string; keys: TrustedKey[] }, createdAt?: string): Promise<TrustedJwksRow> {
  requireOwner(ctx);
  refuseBadPoints(input.keys);
  const { db } = ctx.service;
  const companyKey = ctx.caller.companyKey;
  return db.tx(async () => {
    const existing = await findTrustedJwks(db, companyKey, id);
    const keys = JSON.stringify(input.keys);
    // The same signer again (a retried PUT): no new version to sync.
    if (existing && existing.name === input.name && existing.keys === keys) return existing;
    const at = nowIso();
    const row = { id, name: input.name, keys, created_at: existing?.created_at ?? createdAt ?? at, updated_at: at };
    if (existing) {
      await db.run(
        db.q.updateTable('trusted_jwks').set({ name: row.name, keys: row.keys, updated_at: at }).where('company_id', '=', companyKey).where('id', '=', id),
      );
    } else {
      await db.run(db.q.insertInto('trusted_jwks').values({ ...row, company_id: companyKey }));
    }
    return row;
  }, { origin: db.origin ?? LOCAL });
}

/** Stops trusting a signer; answers whether it was trusted. Documents already stored stay as they are. */
export async function removeTrustedJwks(ctx: Ctx, id: string): Promise<boolean> {
  requireOwner(ctx);
  const { db } = ctx.service;
  const companyKey = ctx.caller.companyKey;
  return db.tx(async () => {
    const { changes } = await db.run(db.q.deleteFrom('trusted_jwks').where('company_id', '=', companyKey).where('id', '=', id));
    return changes > 0;
  }, { origin: db.origin ?? LOCAL });
}

export const trustedJwksHandlers: HandlersOf<typeof trustedJwksOperations> = {
  listTrustedJwks: async (ctx) => {
    const { db } = ctx.service;
    const rows = await db.all(db.q.selectFrom('trusted_jwks').selectAll().where('company_id', '=', ctx.caller.companyKey).orderBy('created_at').orderBy('id'));
    return { list: rows.map(trustedJwksView) };
  },
  putTrustedJwks: async (ctx, { params, body }) => trustedJwksView(await saveTrustedJwks(ctx, params.id, body)),
  deleteTrustedJwks: async (ctx, { params }) => ({ id: params.id, deleted: await removeTrustedJwks(ctx, params.id) }),
};
