import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import { compactVerify, createLocalJWKSet, exportJWK, generateKeyPair, type JWK } from 'jose';
import { v4 as uuidv4 } from 'uuid';
import { decodeJws, SignatureError, signCompactEs256, verifyEs256 } from './jws.ts';
import {
  prepareKeyDir, readCurrentKid, readKeyFiles, writeCurrentKid, writeKeyFile, type KeySealer, type PrivateJwk,
} from './key-files.ts';

/** A public key as served in the JWKS. */
export interface PublicJwk {
  kty: 'EC';
  crv: 'P-256';
  x: string;
  y: string;
  kid: string;
  alg: 'ES256';
  use: 'sig';
}

interface LoadedKey {
  privateKey: KeyObject;
  publicKey: KeyObject;
  publicJwk: PublicJwk;
}

/**
 * The instance's signing identity: ES256 (P-256) key pairs named by a UUID kid,
 * made on first start. One key is current and signs; keys replaced by `rotate()`
 * stay, so everything signed before a rotation still verifies against the JWKS.
 */
export class InstanceKeys {
  readonly #dir: string;
  readonly #sealer?: KeySealer;
  readonly #keys = new Map<string, LoadedKey>();
  #current = '';
  #jwkSet = createLocalJWKSet({ keys: [] });

  private constructor(dir: string, sealer?: KeySealer) {
    this.#dir = dir;
    this.#sealer = sealer;
  }

  /** Loads the keys in `dir` (DIR/keys), making the first one when there is none. */
  static async load(dir: string, sealer?: KeySealer): Promise<InstanceKeys> {
    const keys = new InstanceKeys(dir, sealer);
    prepareKeyDir(dir);
    for (const jwk of readKeyFiles(dir, sealer)) keys.#add(jwk);
    const current = readCurrentKid(dir);
    if (current && keys.#keys.has(current)) {
      keys.#current = current;
      keys.#refreshSet();
    } else {
      await keys.rotate();
    }
    return keys;
  }

  /** kid of the key that signs now */
  get kid(): string {
    return this.#current;
  }

  /** A compact JWS over JSON.stringify(payload), header `{"alg":"ES256","kid":…}`. */
  sign(payload: object): string {
    return signCompactEs256(this.#keys.get(this.#current)!.privateKey, this.#current, payload);
  }

  /** Every public key, current first: what anyone needs to verify offline. */
  jwks(): { keys: PublicJwk[] } {
    const others = [...this.#keys.keys()].filter((kid) => kid !== this.#current).sort();
    return { keys: [this.#current, ...others].map((kid) => ({ ...this.#keys.get(kid)!.publicJwk })) };
  }

  /** The payload of a JWS signed by any of this instance's keys; throws SignatureError otherwise. */
  async verify(jws: string): Promise<Record<string, unknown>> {
    const { header } = decodeJws(jws);
    if (header.alg !== 'ES256') throw new SignatureError('malformed', `unsupported alg ${String(header.alg)}`);
    if (typeof header.kid !== 'string' || !this.#keys.has(header.kid)) {
      throw new SignatureError('unknown-kid', `no key ${String(header.kid)} on this instance`);
    }
    let bytes: Uint8Array;
    try {
      ({ payload: bytes } = await compactVerify(jws, this.#jwkSet, { algorithms: ['ES256'] }));
    } catch (err) {
      const code = (err as { code?: string }).code;
      if (code === 'ERR_JWKS_NO_MATCHING_KEY') throw new SignatureError('unknown-kid', `no key ${header.kid} on this instance`);
      if (code === 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED') throw new SignatureError('bad-signature', 'the signature does not match');
      throw new SignatureError('malformed', `not a valid JWS: ${(err as Error).message}`);
    }
    let payload: unknown;
    try {
      payload = JSON.parse(Buffer.from(bytes).toString('utf8'));
    } catch {
      throw new SignatureError('malformed', 'the JWS payload is not JSON');
    }
    if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) {
      throw new SignatureError('malformed', 'the JWS payload is not an object');
    }
    return payload as Record<string, unknown>;
  }

  /** The same check as `verify`, synchronously: for records applied inside a transaction. */
  verifySync(jws: string): Record<string, unknown> {
    return verifyEs256(jws, (kid) => this.#keys.get(kid)?.publicKey, 'this instance');
  }

  /**
   * Makes a new current key. The key file is durable before it becomes current, so
   * a crash in between leaves an unused key, never a current one that is missing.
   */
  async rotate(): Promise<string> {
    const { privateKey } = await generateKeyPair('ES256', { extractable: true });
    const exported: JWK = await exportJWK(privateKey);
    const jwk: PrivateJwk = {
      kty: 'EC',
      crv: 'P-256',
      x: exported.x!,
      y: exported.y!,
      d: exported.d!,
      kid: uuidv4(),
      alg: 'ES256',
      use: 'sig',
    };
    writeKeyFile(this.#dir, jwk, this.#sealer);
    writeCurrentKid(this.#dir, jwk.kid);
    this.#add(jwk);
    this.#current = jwk.kid;
    this.#refreshSet();
    return jwk.kid;
  }

  #add(jwk: PrivateJwk): void {
    const { kty, crv, x, y, kid } = jwk;
    this.#keys.set(kid, {
      privateKey: createPrivateKey({ key: { kty, crv, x, y, d: jwk.d }, format: 'jwk' }),
      publicKey: createPublicKey({ key: { kty, crv, x, y }, format: 'jwk' }),
      publicJwk: { kty, crv, x, y, kid, alg: 'ES256', use: 'sig' },
    });
  }

  #refreshSet(): void {
    this.#jwkSet = createLocalJWKSet(this.jwks());
  }
}

export type { KeySealer } from './key-files.ts';
