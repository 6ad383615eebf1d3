// `npm start` runs this first. The project denies electron's install script (its
// binary cannot be downloaded on every machine, and a failed download would roll
// back the whole `npm install`), so the binary is fetched here, on first start.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

let electronDir;
try {
  electronDir = dirname(require.resolve('electron/package.json'));
} catch {
  fail('the electron package is not installed; run `npm install` first.');
}

if (!isInstalled(electronDir)) {
  console.log('silodesk: downloading the Electron binary (first start only)…');
  // The installer exits quietly without downloading when this is set; here we do want it.
  const env = { ...process.env };
  delete env.ELECTRON_SKIP_BINARY_DOWNLOAD;
  const result = spawnSync(process.execPath, [join(electronDir, 'install.js')], { stdio: 'inherit', env });
  if (result.status !== 0 || !isInstalled(electronDir)) {
    fail(
      'could not download the Electron binary. Check the internet connection (or proxy settings:\n' +
        '  HTTPS_PROXY, ELECTRON_MIRROR) and run `npm start` again.',
    );
  }
}

/** The same test electron's own index.js relies on: path.txt names an executable under dist/. */
function isInstalled(dir) {
  if (process.env.ELECTRON_OVERRIDE_DIST_PATH) return true;
  try {
    const executable = readFileSync(join(dir, 'path.txt'), 'utf8').trim();
    return executable !== '' && existsSync(join(dir, 'dist', executable));
  } catch {
    return false;
  }
}

function fail(message) {
  console.error(`silodesk: ${message}`);
  process.exit(1);
}
