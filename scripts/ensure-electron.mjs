// `npm start` and `npm run dev` run this first. The project denies electron's install
// script (its binary cannot be downloaded on every machine, and a failed download would
// roll back the whole `npm install`), so the binary is fetched here, on first start.
// Without internet it stops with what else works: an Electron already on the machine
// (ELECTRON_EXEC_PATH, which electron-vite uses) or the headless `npm run serve`.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The variable electron-vite reads for the Electron executable to run (it ignores ELECTRON_OVERRIDE_DIST_PATH). */
export const LOCAL_ELECTRON_ENV = 'ELECTRON_EXEC_PATH';

/** What to say when the download failed; `cause` is the installer's error line, when it printed one. */
export function downloadFailedMessage(cause) {
  return [
    `silodesk: could not download the Electron binary${cause ? ` (${cause})` : ''}. Either:`,
    '  - connect to the internet (behind a proxy: set HTTPS_PROXY, or ELECTRON_MIRROR for a mirror) and run `npm start` again;',
    `  - or use an Electron already on this machine: ${LOCAL_ELECTRON_ENV}=/path/to/electron npm start;`,
    '  - or run Silodesk without Electron: `npm run serve`, then open the link it prints in a browser.',
  ].join('\n');
}

/** True for what electron's install.js prints when it fails: an error and its stack, not progress. */
export const isErrorReport = (text) => /^\s*[A-Za-z]*Error\b/.test(text) || /\n\s+at /.test(text);

/**
 * Makes sure `electron-vite` will find an Electron to run. Answers the exit code.
 * deps: { electronDir, env, exists, read, runInstaller(env) → Promise<{ status, stderr }>, log, error }
 */
export async function ensureElectron(deps) {
  const { electronDir, env, exists, read, runInstaller, log, error } = deps;
  const local = env[LOCAL_ELECTRON_ENV];
  if (local) {
    if (exists(local)) return 0;
    error(`silodesk: ${LOCAL_ELECTRON_ENV}=${local} does not exist; point it at an Electron executable, or unset it.`);
    return 1;
  }
  if (isInstalled(electronDir, exists, read)) return 0;
  log('silodesk: downloading the Electron binary (first start only)…');
  // The installer exits quietly without downloading when this is set; here we do want it.
  const installEnv = { ...env };
  delete installEnv.ELECTRON_SKIP_BINARY_DOWNLOAD;
  const result = await runInstaller(installEnv);
  if (result.status === 0 && isInstalled(electronDir, exists, read)) return 0;
  const cause = (result.stderr ?? '')
    .split('\n')
    .map((line) => line.trim())
    .find((line) => /^[A-Za-z]*Error\b/.test(line));
  error(downloadFailedMessage(cause));
  return 1;
}

/** The same test electron-vite relies on: path.txt names an executable under dist/. */
function isInstalled(dir, exists, read) {
  try {
    const executable = read(join(dir, 'path.txt')).trim();
    return executable !== '' && exists(join(dir, 'dist', executable));
  } catch {
    return false;
  }
}

async function main() {
  let electronDir;
  try {
    electronDir = dirname(createRequire(import.meta.url).resolve('electron/package.json'));
  } catch {
    console.error('silodesk: the electron package is not installed; run `npm install` first.');
    process.exit(1);
  }
  const code = await ensureElectron({
    electronDir,
    env: process.env,
    exists: existsSync,
    read: (path) => readFileSync(path, 'utf8'),
    runInstaller: (env) =>
      new Promise((done) => {
        // Progress goes through as it comes; an error report is kept back and summed up in one line.
        const child = spawn(process.execPath, [join(electronDir, 'install.js')], { stdio: ['ignore', 'inherit', 'pipe'], env });
        let stderr = '';
        child.stderr.setEncoding('utf8');
        child.stderr.on('data', (chunk) => {
          stderr += chunk;
          if (!isErrorReport(chunk)) process.stderr.write(chunk);
        });
        child.on('error', (err) => done({ status: 1, stderr: `Error: ${err.message}` }));
        child.on('close', (status) => done({ status, stderr }));
      }),
    log: (line) => console.log(line),
    error: (line) => console.error(line),
  });
  process.exit(code);
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) await main();
