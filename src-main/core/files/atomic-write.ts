import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

// Temp names start with a dot and end in .tmp, so programs polling a folder for
// *.json or *.pdf never pick one up half-written.
export const TEMP_PREFIX = '.silodesk-';
export const TEMP_SUFFIX = '.tmp';

/**
 * Puts `bytes` at `target` so that a reader (or a crash) sees the old file or the
 * whole new one, never a part: a temp file (created with `mode`, so a secret is
 * never readable by others), fsync, rename over the target, fsync the folder so
 * the rename itself survives a power cut. Attachment bytes take its asynchronous
 * twin, storeBlobs (blob-writes.ts); everything else written to disk takes this.
 */
export function writeFileAtomic(target: string, bytes: Uint8Array, opts: { mode?: number } = {}): void {
  const dir = dirname(target);
  const temp = join(dir, `${TEMP_PREFIX}${randomBytes(8).toString('hex')}${TEMP_SUFFIX}`);
  try {
    const fd = openSync(temp, 'wx', opts.mode ?? 0o600);
    try {
      let offset = 0;
      while (offset < bytes.byteLength) offset += writeSync(fd, bytes, offset);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    // rename replaces a symlink at `target` itself, never the file it points to.
    renameSync(temp, target);
  } catch (err) {
    rmSync(temp, { force: true });
    throw err;
  }
  syncFolder(dir);
}

export function isTempName(path: string): boolean {
  const name = basename(path);
  return name.startsWith(TEMP_PREFIX) && name.endsWith(TEMP_SUFFIX);
}

export function syncFolder(dir: string): void {
  // Windows cannot open a folder to fsync it; NTFS journals the rename itself.
  if (process.platform === 'win32') return;
  try {
    const fd = openSync(dir, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // a file system that cannot sync folders still renamed atomically
  }
}
