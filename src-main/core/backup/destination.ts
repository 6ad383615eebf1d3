// The folder backups go to: an absolute path outside the data folder (a backup inside what it
// backs up would be copied into the next one, and lost with the folder), created when missing.
import { mkdirSync, realpathSync } from 'node:fs';
import { isAbsolute, relative, resolve } from 'node:path';

/** Why `folder` cannot take backups of `dataDir`, or undefined when it can (made if missing). */
export function destinationProblem(folder: string, dataDir: string): string | undefined {
  if (folder.trim() === '') return 'must not be empty';
  if (/[\0\r\n]/.test(folder)) return 'must not contain control characters';
  if (!isAbsolute(folder)) return 'must be an absolute path, like /home/ana/Backups/silodesk';
  const target = resolve(folder);
  try {
    mkdirSync(target, { recursive: true, mode: 0o700 });
  } catch (err) {
    return `cannot be created: ${(err as NodeJS.ErrnoException).code ?? 'error'}`;
  }
  const real = realpathSync(target);
  const data = realpathSync(dataDir);
  const inside = relative(data, real);
  if (inside === '' || (!inside.startsWith('..') && !isAbsolute(inside))) return 'must be outside the data folder';
  return undefined;
}
