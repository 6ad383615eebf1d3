import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * The project folder a module of `serve` belongs to: the nearest folder above it holding a
 * package.json. It is two levels up from the sources (src-main/http) and from the service build
 * (out/serve), so neither depth is written down.
 */
export function projectDirOf(moduleDir: string, exists: (path: string) => boolean = existsSync): string | undefined {
  for (let dir = moduleDir; ; dir = dirname(dir)) {
    if (exists(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) return undefined;
  }
}

/** The built web UI `serve` hands out (the project's out/web), if there is one. */
export function webRootOf(moduleDir: string, exists: (path: string) => boolean = existsSync): string | undefined {
  const project = projectDirOf(moduleDir, exists);
  const root = project && join(project, 'out', 'web');
  return root && exists(root) ? root : undefined;
}
