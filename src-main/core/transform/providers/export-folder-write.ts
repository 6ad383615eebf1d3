import { randomBytes } from 'node:crypto';
import {
  closeSync, fsyncSync, lstatSync, openSync, readdirSync, readFileSync, renameSync, rmSync, writeSync,
} from 'node:fs';
import { join } from 'node:path';

// Temp files start with a dot and end in .tmp, so programs polling for *.json or
// *.pdf never pick one up, and are a fixed length, so a 255-byte name still fits.
const TEMP_PREFIX = '.silodesk-';
const TEMP_SUFFIX = '.tmp';
const STALE_TEMP_MS = 60 * 60 * 1000;

/**
 * Puts `bytes` at dir/name so that a reader sees the old file or the whole new
 * one, never a part: written to a temp file in the same folder, fsynced, renamed
 * over the name, and the folder fsynced. A file already holding exactly these
 * bytes is left alone (its mtime too, so pollers do not import it again).
 * Returns whether it wrote.
 */
export function writeFileAtomic(dir: string, name: string, bytes: Uint8Array): boolean {
  const target = join(dir, name);
  if (holdsBytes(target, bytes)) return false;

  const temp = join(dir, `${TEMP_PREFIX}${randomBytes(8).toString('hex')}${TEMP_SUFFIX}`);
  try {
    const fd = openSync(temp, 'wx', 0o644);
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
  return true;
}

/** Removes temp files a crash left behind; recent ones may belong to a write still running. */
export function sweepStaleTemps(dir: string, now: number = Date.now()): void {
  for (const name of readdirSync(dir)) {
    if (!name.startsWith(TEMP_PREFIX) || !name.endsWith(TEMP_SUFFIX)) continue;
    const path = join(dir, name);
    try {
      const stat = lstatSync(path);
      if (stat.isFile() && now - stat.mtimeMs > STALE_TEMP_MS) rmSync(path, { force: true });
    } catch {
      // gone already
    }
  }
}

function holdsBytes(path: string, bytes: Uint8Array): boolean {
  try {
    const stat = lstatSync(path);
    if (!stat.isFile() || stat.size !== bytes.byteLength) return false;
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).equals(readFileSync(path));
  } catch {
    return false;
  }
}

function syncFolder(dir: string): void {
  try {
    const fd = openSync(dir, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // Windows cannot fsync a folder; the rename is atomic there all the same.
  }
}
