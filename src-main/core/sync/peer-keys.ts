import { createPublicKey, type KeyObject } from 'node:crypto';
import { conflict } from '../api/errors.ts';
import { nowIso } from '../clock.ts';
import type { Db } from '../db/engine.ts';
import { isOwnIdentity } from '../keys/identity.ts';
import type { PublicJwk } from '../keys/instance-keys.ts';
import { decodeJws, verifyEs256 } from '../keys/jws.ts';
import type { Service } from '../service.ts';
import { LOCAL } from '../db/write-scopes.ts';
import type { CompanyKey } from '../access/company-key.ts';

/** What checks a JWS: this instance's keys, or the stored keys of the series' issuer. */
export interface JwsVerifier {
  verify(jws: string): Promise<Record<string, unknown>>;
}

/**
 * Keeps another instance's public keys for one company. Keys are trusted per
 * company: a key registered in company B (by B's owner, or pulled from B's remote)
 * never verifies anything of company A. A kid, once known in a company, is pinned
 * to its key: later keys can be added (the issuer rotated) but never swapped, so
 * nobody can re-key an issuer's series. The same key may stand for an instance and
 * its successor (re-identified after a restore, with the same key files): whatever
 * it signs was signed by the holder of that private key either way.
 */
export async function storeInstanceKeys(db: Db, companyKey: CompanyKey, instanceId: string, keys: PublicJwk[]): Promise<number> {
  // counted inside, answered once committed: a transaction PostgreSQL runs again counts afresh
  return await db.tx(async () => {
    let added = 0;
    for (const jwk of keys) {
      const pinned = await db.all(
        db.q.selectFrom('sync_instance_keys').selectAll().where('company_id', '=', companyKey).where('kid', '=', jwk.kid),
      );
      const text = JSON.stringify({ kty: jwk.kty, crv: jwk.crv, x: jwk.x, y: jwk.y, kid: jwk.kid, alg: jwk.alg, use: jwk.use });
      if (pinned.some((p) => p.jwk !== text)) throw conflict(`key ${jwk.kid} is already known with another value`);
      if (pinned.some((p) => p.instance_id === instanceId)) continue;
      await db.run(
        db.q.insertInto('sync_instance_keys').values({ company_id: companyKey, kid: jwk.kid, instance_id: instanceId, jwk: text, created_at: nowIso() }),
      );
      added++;
    }
    return added;
  }, { origin: LOCAL });
}

export async function instanceKeySets(db: Db, companyKey: CompanyKey): Promise<Array<{ instance_id: string; keys: PublicJwk[] }>> {
  const rows = await db.all(
    db.q.selectFrom('sync_instance_keys').selectAll().where('company_id', '=', companyKey).orderBy('instance_id').orderBy('created_at').orderBy('kid'),
  );
  const byInstance = new Map<string, PublicJwk[]>();
  for (const row of rows) {
    const list = byInstance.get(row.instance_id) ?? [];
    list.push(JSON.parse(row.jwk) as PublicJwk);
    byInstance.set(row.instance_id, list);
  }
  return [...byInstance].map(([instance_id, keys]) => ({ instance_id, keys }));
}

const keyObjects = new WeakMap<Db, Map<string, KeyObject>>();

async function peerKey(db: Db, companyKey: CompanyKey, instanceId: string, kid: string): Promise<KeyObject | undefined> {
  let cache = keyObjects.get(db);
  if (!cache) keyObjects.set(db, (cache = new Map()));
  const cacheKey = `${companyKey}/${instanceId}/${kid}`;
  const cached = cache.get(cacheKey);
  if (cached) return cached;
  const row = await db.first(
    db.q
      .selectFrom('sync_instance_keys')
      .selectAll()
      .where('company_id', '=', companyKey)
      .where('kid', '=', kid)
      .where('instance_id', '=', instanceId),
  );
  if (!row) return undefined;
  const key = createPublicKey({ key: JSON.parse(row.jwk), format: 'jwk' });
  cache.set(cacheKey, key);
  return key;
}

/**
 * Checks a compact ES256 JWS made by `issuer`, and answers its payload. This
 * install (under its id now or a former one) is checked against its own keys only,
 * whatever anyone registered under its id; another instance against the keys the
 * company holds for it (looked up by the JWS's kid before the check, which itself
 * is synchronous). Throws SignatureError.
 */
export async function verifyIssuerJws(service: Service, companyKey: CompanyKey, issuer: string, jws: string): Promise<Record<string, unknown>> {
  if (await isOwnIdentity(service.db, service.instanceId, issuer)) return service.keys.verifySync(jws);
  const { kid } = decodeJws(jws).header;
  const key = typeof kid === 'string' ? await peerKey(service.db, companyKey, issuer, kid) : undefined;
  return verifyEs256(jws, (wanted) => (wanted === kid ? key : undefined), `instance ${issuer}`);
}

/** The verifier for a series of `companyKey` issued by `issuer`. */
export function verifierFor(service: Service, companyKey: CompanyKey, issuer: string): JwsVerifier {
  return { verify: (jws) => verifyIssuerJws(service, companyKey, issuer, jws) };
}
