import type { KeySealer } from '../core/keys/key-files.ts';

/** The part of Electron's safeStorage this needs (a fake in tests). */
export interface SafeStorageLike {
  isEncryptionAvailable(): boolean;
  /** Linux only: which secret store backs it; `basic_text` is a hard-coded password, i.e. no protection */
  getSelectedStorageBackend?(): string;
  encryptString(plain: string): Buffer;
  decryptString(sealed: Buffer): string;
}

/** Backends that store secrets without real protection (Linux without a keyring). */
const INSECURE_BACKENDS = new Set(['basic_text', 'unknown']);

/** The signing keys would be left unprotected: the app refuses to start rather than write them so. */
export class KeyStorageRefused extends Error {}

/**
 * How the desktop app seals its private signing keys: with the OS keychain
 * through safeStorage, or not at all. On Linux without a keyring, safeStorage
 * "encrypts" with a fixed password (backend `basic_text`); keys sealed that way
 * are as readable as plain files, so they are refused with a clear message
 * instead of being stored while the README promises they are sealed.
 */
export function keySealerFor(safeStorage: SafeStorageLike, platform: NodeJS.Platform): KeySealer {
  const backend = platform === 'linux' ? (safeStorage.getSelectedStorageBackend?.() ?? 'unknown') : 'os';
  if (!safeStorage.isEncryptionAvailable() || INSECURE_BACKENDS.has(backend)) {
    const why = platform === 'linux' ? `no keyring is available (safeStorage backend: ${backend})` : 'the system keychain is not available';
    throw new KeyStorageRefused(
      `Silodesk will not store its signing keys unprotected, and ${why}. ` +
        (platform === 'linux'
          ? 'Install and unlock a keyring (GNOME Keyring or KWallet, with a Secret Service), then start Silodesk again. '
          : 'Sign in to your user account normally (so its keychain is unlocked), then start Silodesk again. ') +
        'Or run the headless `npm run serve`, which keeps its keys in files only your user can read.',
    );
  }
  return {
    encrypt: (b: Buffer) => safeStorage.encryptString(b.toString('utf8')),
    decrypt: (b: Buffer) => Buffer.from(safeStorage.decryptString(b), 'utf8'),
  };
}
