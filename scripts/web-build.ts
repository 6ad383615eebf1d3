// The web UI build in out/web, reused while it is current: `npm run serve` and
// `npm run test:e2e` rebuild only when src-renderer/, vite.web.config.ts,
// package-lock.json or a project file the last bundle was made from (the list
// vite.web.config.ts writes to out/web.inputs.json) is newer than that build.
//   node scripts/web-build.ts [--rebuild]     builds when stale (or always)
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildStatus, discard, hostBuildFs, pathsUnder, swapIn, type BuildFs, type BuildStatus } from './build-freshness.ts';

export type { BuildFs } from './build-freshness.ts';

export const PROJECT_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

export const webOutDir = (root: string) => join(root, 'out', 'web');

export function webBuildStatus(root: string, fs: BuildFs): BuildStatus {
  return buildStatus(root, fs, {
    label: 'web UI',
    outDir: webOutDir(root),
    entry: 'index.html',
    always: ['vite.web.config.ts', 'package-lock.json', ...pathsUnder(root, fs, 'src-renderer')],
  });
}

/**
 * Builds the web UI when it is stale (or when `rebuild`), into a fresh folder that then
 * replaces out/web, so a server using the old build never sees a half-empty folder.
 * Answers whether it built; throws when the build fails.
 */
export function ensureWebBuild(options: { root?: string; rebuild?: boolean; log?: (line: string) => void } = {}): boolean {
  const root = options.root ?? PROJECT_ROOT;
  const log = options.log ?? ((line) => console.error(line));
  const status = webBuildStatus(root, hostBuildFs);
  if (status.current && !options.rebuild) return false;
  let viteBin: string;
  try {
    viteBin = join(dirname(createRequire(import.meta.url).resolve('vite/package.json')), 'bin', 'vite.js');
  } catch {
    log(`silodesk: cannot rebuild the web UI (${status.reason}): vite is not installed; run \`npm install\`.`);
    return false;
  }
  log(`silodesk: building the web UI (${options.rebuild ? '--rebuild' : status.reason})…`);
  const outDir = webOutDir(root);
  const next = join(root, 'out', `web-next-${process.pid}`);
  const build = spawnSync(
    process.execPath,
    [viteBin, 'build', '--config', join(root, 'vite.web.config.ts'), '--outDir', next, '--emptyOutDir', '--logLevel', 'warn'],
    { cwd: root, stdio: 'inherit' },
  );
  if (build.status !== 0) {
    discard(next);
    throw new Error('the web UI build failed (see above)');
  }
  swapIn(next, outDir, String(process.pid));
  return true;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  try {
    if (!ensureWebBuild({ rebuild: process.argv.includes('--rebuild') })) console.error('silodesk: the web UI build is current');
  } catch (error) {
    console.error(`silodesk: ${(error as Error).message}`);
    process.exit(1);
  }
}
