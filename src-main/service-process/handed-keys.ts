import { join } from 'node:path';
import { securePrivateDataDir } from '../core/files/private-data-dir.ts';
import { sha256Hex } from '../core/sha256.ts';
import { InstanceKeys, type KeySealer } from '../core/keys/instance-keys.ts';

/**
 * The instance's private signing keys cross from the shell to the service process
 * unsealed, in memory only: the OS keychain (Electron's safeStorage) can be used
 * in the main process alone, and a key is never written to disk unsealed.
 */
export interface HandedKey {
  /** SHA-256 (hex) of the key's sealed file, which is how the service finds it */
  sealed_sha256: string;
  plain: Uint8Array;
}

/**
 * The shell's half: makes sure the data dir has a current signing key (a new one
 * is sealed with the keychain), unseals every key, and answers them for the
 * service. Run before each start of the service process, so the shell keeps no
 * key in memory between starts.
 */
export async function unsealSigningKeys(dataDir: string, keychain: KeySealer): Promise<HandedKey[]> {
  securePrivateDataDir(dataDir);
  const handed = new Map<string, HandedKey>();
  const remember = (sealed: Buffer, plain: Buffer) => {
    const key = { sealed_sha256: sha256Hex(sealed), plain: new Uint8Array(plain) };
    handed.set(key.sealed_sha256, key);
  };
  // InstanceKeys reads (and on first start makes) the key files exactly as the service will.
  await InstanceKeys.load(join(dataDir, 'keys'), {
    encrypt(plain) {
      const sealed = keychain.encrypt(plain);
      remember(sealed, plain);
      return sealed;
    },
    decrypt(sealed) {
      const plain = keychain.decrypt(sealed);
      remember(sealed, plain);
      return plain;
    },
  });
  return [...handed.values()];
}

/**
 * The service's half: a sealer that opens only the key files the shell unsealed,
 * and never writes a key itself (a new key is made and sealed by the shell, at
 * the next start), so nothing unsealed reaches the disk.
 */
export function handedOverSealer(keys: readonly HandedKey[]): KeySealer {
  const bySealed = new Map(keys.map((k) => [k.sealed_sha256, k.plain]));
  return {
    decrypt(sealed) {
      const plain = bySealed.get(sha256Hex(sealed));
      if (!plain) throw new Error('a signing key file changed after the desktop app unsealed it; start Silodesk again');
      return Buffer.from(plain);
    },
    encrypt() {
      throw new Error('new signing keys are made by the desktop app, which seals them with the keychain, at its next start');
    },
  };
}
