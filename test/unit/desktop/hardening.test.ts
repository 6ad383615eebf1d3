import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { keySealerFor, KeyStorageRefused, type SafeStorageLike } from '../../../src-main/desktop/key-sealer.ts';
import { frameMayNavigate } from '../../../src-main/desktop/navigation.ts';
import { denyAllPermissions, windowPreferences } from '../../../src-main/desktop/window-prefs.ts';

const APP = 'app://silodesk';

function fakeSafeStorage(available: boolean, backend: string): SafeStorageLike {
  return {
    isEncryptionAvailable: () => available,
    getSelectedStorageBackend: () => backend,
    encryptString: (s) => Buffer.from(`sealed:${s}`),
    decryptString: (b) => b.toString().replace(/^sealed:/, ''),
  };
}

describe('the Electron shell', () => {
  it('is packaged with its fuses burnt: no RunAsNode, no NODE_OPTIONS, no --inspect, asar integrity checked', () => {
    const config = JSON.parse(readFileSync('electron-builder.json', 'utf8'));
    expect(config.asar).toBe(true);
    expect(config.electronFuses).toMatchObject({
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
    });
    // nothing to download at install: the packager is not a dependency
    const pkg = JSON.parse(readFileSync('package.json', 'utf8'));
    expect({ ...pkg.dependencies, ...pkg.devDependencies }).not.toHaveProperty('electron-builder');
  });

  it('refuses to keep signing keys where no secure keychain exists, with a message that says what to do', () => {
    for (const [available, backend] of [[true, 'basic_text'], [false, 'unknown'], [true, 'unknown']] as const) {
      let error: unknown;
      try {
        keySealerFor(fakeSafeStorage(available, backend), 'linux');
      } catch (err) {
        error = err;
      }
      expect(error, `${available} ${backend}`).toBeInstanceOf(KeyStorageRefused);
      expect((error as Error).message).toMatch(/will not store its signing keys unprotected.*keyring/);
    }
    expect(() => keySealerFor(fakeSafeStorage(false, 'n/a'), 'darwin')).toThrow(KeyStorageRefused);
    const sealer = keySealerFor(fakeSafeStorage(true, 'gnome_libsecret'), 'linux');
    expect(sealer.decrypt(sealer.encrypt(Buffer.from('key'))).toString()).toBe('key');
    expect(keySealerFor(fakeSafeStorage(true, 'ignored off Linux'), 'win32')).toBeDefined();
  });

  it('lets frames show only the app\'s own pages and blobs; the window itself never navigates', () => {
    expect(frameMayNavigate(`${APP}/index.html`, true, APP)).toBe(false);
    for (const ok of [`${APP}/preview.html`, `blob:${APP}/0d9b7c1e-8f4e-4b7c-9d8e-1a2b3c4d5e6f`, 'about:blank']) expect(frameMayNavigate(ok, false, APP), ok).toBe(true);
    for (const bad of ['https://evil.example/', 'file:///etc/passwd', 'blob:https://evil.example/x', 'javascript:alert(1)', 'smb://host/share', 'not a url']) {
      expect(frameMayNavigate(bad, false, APP), bad).toBe(false);
    }
  });

  it('has no DevTools when packaged, and refuses every permission request and check', () => {
    expect(windowPreferences('/p.cjs', true)).toMatchObject({ devTools: false, sandbox: true, contextIsolation: true, nodeIntegration: false });
    expect(windowPreferences('/p.cjs', false).devTools).toBe(true);
    const handlers: { request?: Function; check?: Function } = {};
    denyAllPermissions({ setPermissionRequestHandler: (h) => (handlers.request = h), setPermissionCheckHandler: (h) => (handlers.check = h) });
    let granted: boolean | undefined;
    handlers.request!(null, 'media', (g: boolean) => (granted = g));
    expect(granted).toBe(false);
    expect(handlers.check!(null, 'clipboard-read')).toBe(false);
  });
});
