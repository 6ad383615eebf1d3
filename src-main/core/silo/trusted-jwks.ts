import { createPublicKey } from 'node:crypto';
import type { z } from 'zod';
import { validationError } from '../api/errors.ts';
import type { HandlersOf } from '../api/handler.ts';
import type { trustedJwk, trustedJwksOperations } from '../api/contract/trusted-jwks.ts';
import type { VerifyingJwk } from '../gobl/sign/index.ts';
import { nowIso } from '../clock.ts';
import type { Store } from '../db/store.ts';

type TrustedKey = z.output<typeof trustedJwk>;

/**
 * The signers a company's owner trusts for envelope signatures: a name and the
 * public keys of its JWKS. Kept per company: a JWKS trusted in company A verifies
 * nothing of company B. Only owners read or change the list (contract access).
 */
export function trustedJwksKeys(store: Store, companyId: string): VerifyingJwk[] {
  return store
    .all(store.q.selectFrom('trusted_jwks').select('keys').where('company_id', '=', companyId))
    .flatMap((row) => JSON.parse(row.keys) as VerifyingJwk[]);
}

type Row = { id: string; name: string; keys: string; created_at: string; updated_at: string };
const view = (row: Row) => ({ id: row.id, name: row.name, keys: JSON.parse(row.keys) as TrustedKey[], created_at: row.created_at, updated_at: row.updated_at });

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

export const trustedJwksHandlers: HandlersOf<typeof trustedJwksOperations> = {
  listTrustedJwks: (ctx) => {
    const { store } = ctx.service;
    const rows = store.all(store.q.selectFrom('trusted_jwks').selectAll().where('company_id', '=', ctx.caller.companyId).orderBy('created_at').orderBy('id'));
    return { list: rows.map(view) };
  },
  putTrustedJwks: (ctx, { params, body }) => {
    const { store } = ctx.service;
    refuseBadPoints(body.keys);
    return store.tx(() => {
      // Ids are the company's own: another company may use the same one without either knowing.
      const existing = store.first(
        store.q.selectFrom('trusted_jwks').selectAll().where('company_id', '=', ctx.caller.companyId).where('id', '=', params.id),
      );
      const at = nowIso();
      const row = { id: params.id, company_id: ctx.caller.companyId, name: body.name, keys: JSON.stringify(body.keys), created_at: existing?.created_at ?? at, updated_at: at };
      if (existing) {
        store.run(
          store.q.updateTable('trusted_jwks').set({ name: row.name, keys: row.keys, updated_at: at })
            .where('company_id', '=', ctx.caller.companyId).where('id', '=', params.id),
        );
      } else {
        store.run(store.q.insertInto('trusted_jwks').values(row));
      }
      return view(row);
    });
  },
  deleteTrustedJwks: (ctx, { params }) => {
    const { store } = ctx.service;
    const { changes } = store.run(store.q.deleteFrom('trusted_jwks').where('company_id', '=', ctx.caller.companyId).where('id', '=', params.id));
    return { id: params.id, deleted: changes > 0 };
  },
};
