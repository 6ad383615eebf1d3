import { createPublicKey, verify as ecdsaVerify, type KeyObject } from 'node:crypto';
import { conflict } from '../api/errors.ts';
import { nowIso } from '../clock.ts';
import type { Store } from '../db/store.ts';
import type { PublicJwk } from '../keys/instance-keys.ts';
import { decodeJws, SignatureError } from '../keys/jws.ts';
import type { Service } from '../service.ts';

/** What checks a JWS: this instance's keys, or the stored keys of the series' issuer. */
export interface JwsVerifier {
  verify(jws: string): Promise<Record<string, unknown>>;
}

/**
 * Keeps another instance's public keys. A kid, once known, is pinned to its key
 * and its instance: a later answer can add keys (the issuer rotated) but never
 * swap one, so nobody who holds a sync token can re-key an issuer's series.
 */
export function storePeerKeys(store: Store, instanceId: string, keys: PublicJwk[]): number {
  let added = 0;
  store.tx(() => {
    for (const jwk of keys) {
      const pinned = store.first(store.q.selectFrom('sync_peer_keys').selectAll().where('kid', '=', jwk.kid));
      const text = JSON.stringify({ kty: jwk.kty, crv: jwk.crv, x: jwk.x, y: jwk.y, kid: jwk.kid, alg: jwk.alg, use: jwk.use });
      if (pinned) {
        if (pinned.instance_id !== instanceId || pinned.jwk !== text) throw conflict(`key ${jwk.kid} is already known with another value`);
        continue;
      }
      store.run(store.q.insertInto('sync_peer_keys').values({ kid: jwk.kid, instance_id: instanceId, jwk: text, created_at: nowIso() }));
      added++;
    }
  });
  return added;
}

export function peerKeySets(store: Store): Array<{ instance_id: string; keys: PublicJwk[] }> {
  const rows = store.all(store.q.selectFrom('sync_peer_keys').selectAll().orderBy('instance_id').orderBy('created_at').orderBy('kid'));
  const byInstance = new Map<string, PublicJwk[]>();
  for (const row of rows) {
    const list = byInstance.get(row.instance_id) ?? [];
    list.push(JSON.parse(row.jwk) as PublicJwk);
    byInstance.set(row.instance_id, list);
  }
  return [...byInstance].map(([instance_id, keys]) => ({ instance_id, keys }));
}

const keyObjects = new WeakMap<Store, Map<string, KeyObject>>();

function peerKey(store: Store, instanceId: string, kid: string): KeyObject | undefined {
  let cache = keyObjects.get(store);
  if (!cache) keyObjects.set(store, (cache = new Map()));
  const cached = cache.get(kid);
  if (cached) return cached;
  const row = store.first(store.q.selectFrom('sync_peer_keys').selectAll().where('kid', '=', kid).where('instance_id', '=', instanceId));
  if (!row) return undefined;
  const key = createPublicKey({ key: JSON.parse(row.jwk), format: 'jwk' });
  cache.set(kid, key);
  return key;
}

/**
 * Checks a compact ES256 JWS against the issuer's stored keys, synchronously (sync
 * applies series entries inside a transaction) and answers its payload. Throws
 * SignatureError, like InstanceKeys.verify, so reports read the same.
 */
export function verifyPeerJws(store: Store, issuer: string, jws: string): Record<string, unknown> {
  const { header, payloadBytes } = decodeJws(jws);
  if (header.alg !== 'ES256') throw new SignatureError('malformed', `unsupported alg ${String(header.alg)}`);
  const key = typeof header.kid === 'string' ? peerKey(store, issuer, header.kid) : undefined;
  if (!key) throw new SignatureError('unknown-kid', `no key ${String(header.kid)} of instance ${issuer}`);
  const [h, p, s] = jws.split('.');
  const ok = ecdsaVerify('sha256', Buffer.from(`${h}.${p}`), { key, dsaEncoding: 'ieee-p1363' }, Buffer.from(s, 'base64url'));
  if (!ok) throw new SignatureError('bad-signature', 'the signature does not match');
  let payload: unknown;
  try {
    payload = JSON.parse(payloadBytes.toString('utf8'));
  } catch {
    throw new SignatureError('malformed', 'the JWS payload is not JSON');
  }
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) {
    throw new SignatureError('malformed', 'the JWS payload is not an object');
  }
  return payload as Record<string, unknown>;
}

/** The verifier for a series issued by `issuer`: this instance's own keys, or the issuer's as synced. */
export function verifierFor(service: Service, issuer: string): JwsVerifier {
  if (issuer === service.instanceId) return service.keys;
  return { verify: async (jws) => verifyPeerJws(service.store, issuer, jws) };
}
