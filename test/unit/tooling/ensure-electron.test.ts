import { describe, expect, it } from 'vitest';
import { ensureElectron, isErrorReport } from '../../../scripts/ensure-electron.mjs';

const DIR = '/repo/node_modules/electron';

function run(options: { files?: Record<string, string>; env?: Record<string, string>; installer?: { status: number; stderr: string; writes?: Record<string, string> } }) {
  const files = { ...options.files };
  const out: string[] = [];
  const errors: string[] = [];
  let installs = 0;
  const code = ensureElectron({
    electronDir: DIR,
    env: options.env ?? {},
    exists: (path) => path in files,
    read: (path) => {
      if (!(path in files)) throw new Error('ENOENT');
      return files[path];
    },
    runInstaller: async () => {
      installs++;
      Object.assign(files, options.installer?.writes ?? {});
      return options.installer ?? { status: 0, stderr: '' };
    },
    log: (line) => out.push(line),
    error: (line) => errors.push(line),
  });
  return code.then((exit) => ({ exit, out, errors: errors.join('\n'), installs }));
}

const INSTALLED = { [`${DIR}/path.txt`]: 'electron', [`${DIR}/dist/electron`]: '' };

describe('ensure-electron (npm start)', () => {
  it('does nothing when the binary is there', async () => {
    expect(await run({ files: INSTALLED })).toMatchObject({ exit: 0, installs: 0 });
  });

  it('downloads it on first start', async () => {
    expect(await run({ installer: { status: 0, stderr: '', writes: INSTALLED } })).toMatchObject({ exit: 0, installs: 1 });
  });

  it('offline, says what else works instead of a raw TypeError', async () => {
    const result = await run({ installer: { status: 1, stderr: 'TypeError: fetch failed\n    at node:internal/deps/undici:13510:13\n' } });
    expect(result.exit).toBe(1);
    expect(result.errors).toContain('could not download the Electron binary (TypeError: fetch failed)');
    expect(result.errors).toContain('npm run serve');
    expect(result.errors).toContain('ELECTRON_EXEC_PATH=/path/to/electron npm start');
    expect(result.errors).not.toMatch(/\n\s+at /);
  });

  it('uses an Electron named by ELECTRON_EXEC_PATH (what electron-vite runs) without downloading', async () => {
    expect(await run({ env: { ELECTRON_EXEC_PATH: '/opt/electron/electron' }, files: { '/opt/electron/electron': '' } })).toMatchObject({ exit: 0, installs: 0 });
    const missing = await run({ env: { ELECTRON_EXEC_PATH: '/opt/nothing' } });
    expect(missing).toMatchObject({ exit: 1, installs: 0 });
    expect(missing.errors).toContain('ELECTRON_EXEC_PATH=/opt/nothing does not exist');
  });

  it("keeps the installer's error report back, but lets its progress through", () => {
    expect(isErrorReport('TypeError: fetch failed\n    at x (y.js:1:1)\n')).toBe(true);
    expect(isErrorReport('HTTPError: Response code 404\n')).toBe(true);
    expect(isErrorReport('Downloading electron-v45.4.1-linux-x64.zip: [====      ] 40%\r')).toBe(false);
  });
});
