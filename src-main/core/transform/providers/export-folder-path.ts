import { lstat, mkdir, realpath, stat } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';

/** A destination outside every export root, or one that cannot be a folder. Final: KO. */
export class ExportPathError extends Error {}

/**
 * Where `requested` points, before touching the disk: a relative path is taken
 * under the first root, an absolute one must lie inside one of the roots. `..`
 * segments are refused outright, even ones that would stay inside, so a path
 * reads as what it does. Symlinks are judged later, by makeExportFolder.
 */
export function resolveExportPath(requested: string, roots: readonly string[]): { root: string; dir: string } {
  if (roots.length === 0) throw new ExportPathError('no export roots are configured');
  if (requested.includes('\0')) throw new ExportPathError('the path must not contain NUL');
  if (requested.split(/[\\/]/).includes('..')) throw new ExportPathError('the path must not contain ..');

  if (isAbsolute(requested)) {
    const dir = resolve(requested);
    const root = roots.map((r) => resolve(r)).find((r) => isInside(dir, r));
    if (!root) throw new ExportPathError(`${dir} is not inside an export root`);
    return { root, dir };
  }
  // "C:folder" is relative to drive C's current folder on Windows, i.e. anywhere.
  if (/^[A-Za-z]:/.test(requested)) throw new ExportPathError('the path must not name a drive');
  const root = resolve(roots[0]);
  return { root, dir: resolve(root, requested) };
}

/**
 * Creates `dir` (inside `root`) folder by folder and resolves to its real path.
 * Each step is resolved with realpath before going deeper, so a symlink that
 * leads out of the root is refused before anything is created through it;
 * symlinks that stay inside are followed. Asked of libuv's threads: a share or a
 * busy disk can make each look-up wait.
 */
export async function makeExportFolder(root: string, dir: string): Promise<string> {
  await mkdir(root, { recursive: true });
  const realRoot = await realpath(root);
  let current = realRoot;
  for (const segment of relative(root, dir).split(sep).filter((s) => s !== '' && s !== '.')) {
    const next = join(current, segment);
    if (!(await exists(next))) {
      try {
        await mkdir(next);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      }
    }
    const real = await realPathOf(next);
    if (!isInside(real, realRoot)) throw new ExportPathError(`${next} leads outside the export root`);
    if (!(await stat(real)).isDirectory()) throw new ExportPathError(`${next} is not a folder`);
    current = real;
  }
  return current;
}

export function isInside(path: string, root: string): boolean {
  if (path === root) return true;
  return path.startsWith(root.endsWith(sep) ? root : root + sep);
}

async function realPathOf(path: string): Promise<string> {
  try {
    return await realpath(path);
  } catch (err) {
    // A dangling symlink: where it would lead cannot be vouched for.
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new ExportPathError(`${path} is a broken link`);
    throw err;
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await lstat(path);
    return true;
  } catch {
    return false;
  }
}
