// The web UI build in out/web, reused while it is current: `npm run serve` and
// `npm run test:e2e` rebuild only when src-renderer/, vite.web.config.ts,
// package-lock.json or a project file the last bundle was made from (the list
// vite.web.config.ts writes to out/web.inputs.json) is newer than that build.
//   node scripts/web-build.ts [--rebuild]     builds when stale (or always)
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, posix, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const PROJECT_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** The few file-system questions the freshness check asks (injected in tests). */
export type BuildFs = {
  /** modification time in ms, undefined when the path does not exist */
  mtime(path: string): number | undefined;
  /** every file and folder under dir, as paths relative to dir with '/' */
  list(dir: string): string[];
  read(path: string): string | undefined;
};

export type WebBuildStatus = { current: boolean; reason: string };

export const webOutDir = (root: string) => join(root, 'out', 'web');
export const webInputsRecord = (outDir: string) => `${outDir}.inputs.json`;

export function webBuildStatus(root: string, fs: BuildFs): WebBuildStatus {
  const outDir = webOutDir(root);
  const builtAt = fs.mtime(webInputsRecord(outDir));
  if (builtAt === undefined || fs.mtime(join(outDir, 'index.html')) === undefined) {
    return { current: false, reason: 'there is no web UI build yet' };
  }
  let recorded: string[];
  try {
    recorded = JSON.parse(fs.read(webInputsRecord(outDir)) ?? '').inputs;
    if (!Array.isArray(recorded)) throw new Error('no inputs');
  } catch {
    return { current: false, reason: 'the last build left no readable list of its inputs' };
  }
  const always = ['vite.web.config.ts', 'package-lock.json', 'src-renderer', ...fs.list(join(root, 'src-renderer')).map((p) => posix.join('src-renderer', p))];
  for (const path of new Set([...always, ...recorded])) {
    const mtime = fs.mtime(join(root, path));
    if (mtime === undefined) {
      if (recorded.includes(path)) return { current: false, reason: `${path} is gone` };
      continue;
    }
    if (mtime > builtAt) return { current: false, reason: `${path} changed since the last build` };
  }
  return { current: true, reason: 'the web UI build is current' };
}

export const hostBuildFs: BuildFs = {
  mtime: (path) => {
    try {
      return statSync(path).mtimeMs;
    } catch {
      return undefined;
    }
  },
  list: (dir) => {
    try {
      return readdirSync(dir, { recursive: true, encoding: 'utf8' }).map((p) => p.split('\\').join('/'));
    } catch {
      return [];
    }
  },
  read: (path) => {
    try {
      return readFileSync(path, 'utf8');
    } catch {
      return undefined;
    }
  },
};

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
    rmSync(next, { recursive: true, force: true });
    rmSync(webInputsRecord(next), { force: true });
    throw new Error('the web UI build failed (see above)');
  }
  // Swap the new build in (another run may be swapping its own in at the same moment: retry).
  for (let attempt = 0; ; attempt++) {
    const old = join(root, 'out', `web-old-${process.pid}-${attempt}`);
    try {
      if (existsSync(outDir)) renameSync(outDir, old);
      renameSync(next, outDir);
      break;
    } catch (error) {
      if (attempt >= 3) throw error;
    } finally {
      rmSync(old, { recursive: true, force: true });
    }
  }
  renameSync(webInputsRecord(next), webInputsRecord(outDir));
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
