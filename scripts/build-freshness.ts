// When a build in out/ is current, and how a new one replaces it: shared by the web UI's build
// (web-build.ts) and the headless service's (service-build.ts). Each build writes
// `<outDir>.inputs.json` (beside the build, so it is not served), listing the project files it
// was made from, dated when the build started; the build is current while none of those files,
// nor any of the paths the build names as `always`, is newer.
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** The few file-system questions the freshness check asks (injected in tests). */
export type BuildFs = {
  /** modification time in ms, undefined when the path does not exist */
  mtime(path: string): number | undefined;
  /** every file and folder under dir, as paths relative to dir with '/' */
  list(dir: string): string[];
  read(path: string): string | undefined;
};

export type BuildStatus = { current: boolean; reason: string };

/** A build as its freshness is judged: what it is called, where it goes, the file it cannot be without, and the paths that always count. */
export interface BuildSpec {
  /** e.g. "web UI", in messages */
  label: string;
  outDir: string;
  /** a file the build writes last, relative to outDir */
  entry: string;
  /** project paths (relative to root) that count besides the recorded inputs */
  always: string[];
}

export const inputsRecord = (outDir: string) => `${outDir}.inputs.json`;

export function buildStatus(root: string, fs: BuildFs, spec: BuildSpec): BuildStatus {
  const builtAt = fs.mtime(inputsRecord(spec.outDir));
  if (builtAt === undefined || fs.mtime(join(spec.outDir, spec.entry)) === undefined) {
    return { current: false, reason: `there is no ${spec.label} build yet` };
  }
  let recorded: string[];
  try {
    recorded = JSON.parse(fs.read(inputsRecord(spec.outDir)) ?? '').inputs;
    if (!Array.isArray(recorded)) throw new Error('no inputs');
  } catch {
    return { current: false, reason: 'the last build left no readable list of its inputs' };
  }
  for (const path of new Set([...spec.always, ...recorded])) {
    const mtime = fs.mtime(join(root, path));
    if (mtime === undefined) {
      if (recorded.includes(path)) return { current: false, reason: `${path} is gone` };
      continue;
    }
    if (mtime > builtAt) return { current: false, reason: `${path} changed since the last build` };
  }
  return { current: true, reason: `the ${spec.label} build is current` };
}

/** `dir` and every path under it, relative to root, for a BuildSpec's `always`. */
export const pathsUnder = (root: string, fs: BuildFs, dir: string): string[] => [dir, ...fs.list(join(root, dir)).map((p) => `${dir}/${p}`)];

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
 * Puts the build made in `next` (with its inputs record beside it) in place of `outDir`, so a
 * server using the old build never sees a half-empty folder. Another run may be swapping its own
 * in at the same moment, so a failed rename is tried again.
 */
export function swapIn(next: string, outDir: string, tag: string): void {
  for (let attempt = 0; ; attempt++) {
    const old = `${outDir}-old-${tag}-${attempt}`;
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
  renameSync(inputsRecord(next), inputsRecord(outDir));
}

/** Removes a failed build's folder and record. */
export function discard(next: string): void {
  rmSync(next, { recursive: true, force: true });
  rmSync(inputsRecord(next), { force: true });
}
