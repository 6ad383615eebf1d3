import { join } from 'node:path';
import type { BuildFs } from '../../../scripts/build-freshness.ts';

export const ROOT = '/repo';
/** When the fake build was made. */
export const BUILT = 1_000;

/**
 * A project under ROOT whose files have the given modification times (paths relative to ROOT),
 * with, unless `recorded` is null, a build in `outDir` made at BUILT from `recorded` (its `entry`
 * written just after).
 */
export function fakeProject(files: Record<string, number>, build: { outDir: string; entry: string; recorded: string[] | null }): BuildFs {
  const record = `${build.outDir}.inputs.json`;
  const all: Record<string, number> = { ...files, ...(build.recorded ? { [record]: BUILT, [`${build.outDir}/${build.entry}`]: BUILT + 1 } : {}) };
  return {
    mtime: (path) => all[path.slice(ROOT.length + 1)],
    list: (dir) => {
      const prefix = dir.slice(ROOT.length + 1) + '/';
      return Object.keys(all).filter((p) => p.startsWith(prefix)).map((p) => p.slice(prefix.length));
    },
    read: (path) => (path === join(ROOT, record) && build.recorded ? JSON.stringify({ inputs: build.recorded }) : undefined),
  };
}
