import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { v7 as uuidv7 } from 'uuid';
import type { Store } from '../db/store.ts';
import type { CallerKind } from '../api/operation.ts';
import { nowIso } from '../clock.ts';

export interface Caller {
  companyId: string;
  kind: CallerKind;
  tokenId?: string;
}

const PREFIX = 'sd_';

export const hashToken = (secret: string): string => createHash('sha256').update(secret).digest('hex');

/** A new random 256-bit token. Only its SHA-256 is stored; the secret is returned once. */
export function createToken(
  store: Store,
  companyId: string,
  kind: CallerKind,
  name: string,
  enrollmentId: string | null = null,
): { id: string; secret: string } {
  const secret = PREFIX + randomBytes(32).toString('base64url');
  const id = uuidv7();
  store.run(
    store.q.insertInto('tokens').values({
      id,
      company_id: companyId,
      kind,
      name,
      hash: hashToken(secret),
      enrollment_id: enrollmentId,
      created_at: nowIso(),
      last_used_at: null,
      revoked_at: null,
    }),
  );
  return { id, secret };
}

/**
 * Finds the caller a bearer secret stands for. The lookup is by SHA-256, so timing
 * reveals nothing about the secret; the final comparison is constant-time anyway.
 */
export function resolveToken(store: Store, secret: string): Caller | undefined {
  if (!secret.startsWith(PREFIX) || secret.length > 200) return undefined;
  const hash = hashToken(secret);
  const row = store.first(
    store.q
      .selectFrom('tokens')
      .select(['id', 'company_id', 'kind', 'hash', 'revoked_at'])
      .where('hash', '=', hash),
  );
  if (!row || row.revoked_at) return undefined;
  if (!timingSafeEqual(Buffer.from(row.hash), Buffer.from(hash))) return undefined;
  return { companyId: row.company_id, kind: row.kind as CallerKind, tokenId: row.id };
}
