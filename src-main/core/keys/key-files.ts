import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { isTempName, writeFileAtomic } from '../files/atomic-write.ts';

/** Encrypts key files at rest; the desktop app passes Electron's safeStorage here. */
export interface KeySealer {
  encrypt(plain: Buffer): Buffer;
  decrypt(sealed: Buffer): Buffer;
}

/** A P-256 private key as a JWK, with the members that name it. */
export interface PrivateJwk {
  kty: 'EC';
  crv: 'P-256';
  x: string;
  y: string;
  d: string;
  kid: string;
  alg: 'ES256';
  use: 'sig';
}

const KEY_FILE = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jwk(\.sealed)?$/;
const CURRENT_FILE = 'current';

export function prepareKeyDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  for (const name of readdirSync(dir)) {
    if (isTempName(name)) rmSync(join(dir, name), { force: true });
  }
}

/**
 * Every key of the instance. A `.jwk.sealed` file was written by the desktop app
 * through its sealer; without one (headless on the same data dir) it cannot be
 * read, which is refused loudly rather than silently minting a new identity.
 */
export function readKeyFiles(dir: string, sealer?: KeySealer): PrivateJwk[] {
  const keys: PrivateJwk[] = [];
  for (const name of readdirSync(dir).sort()) {
    const match = KEY_FILE.exec(name);
    if (!match) continue;
    const [, kid, sealed] = match;
    let bytes: Buffer = readFileSync(join(dir, name));
    if (sealed) {
      if (!sealer) throw new Error(`signing key ${kid} is encrypted by the desktop app; open this data dir there`);
      bytes = sealer.decrypt(bytes);
    }
    const jwk = JSON.parse(bytes.toString('utf8')) as PrivateJwk;
    if (jwk.kid !== kid || jwk.kty !== 'EC' || jwk.crv !== 'P-256' || typeof jwk.d !== 'string') {
      throw new Error(`signing key file ${name} does not hold the P-256 private key ${kid}`);
    }
    keys.push(jwk);
  }
  return keys;
}

export function writeKeyFile(dir: string, jwk: PrivateJwk, sealer?: KeySealer): void {
  const plain = Buffer.from(`${JSON.stringify(jwk)}\n`);
  const name = sealer ? `${jwk.kid}.jwk.sealed` : `${jwk.kid}.jwk`;
  writeFileAtomic(join(dir, name), sealer ? sealer.encrypt(plain) : plain);
}

/** The kid new signatures are made with; the other keys only verify. */
export function readCurrentKid(dir: string): string | undefined {
  try {
    return readFileSync(join(dir, CURRENT_FILE), 'utf8').trim() || undefined;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

export function writeCurrentKid(dir: string, kid: string): void {
  writeFileAtomic(join(dir, CURRENT_FILE), Buffer.from(`${kid}\n`));
}
