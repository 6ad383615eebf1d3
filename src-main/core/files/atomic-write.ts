import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

// Temp names start with a dot and end in .tmp, so programs polling a folder for
// *.json or *.pdf never pick one up half-written.
export const TEMP_PREFIX = '.silodesk-';
export const TEMP_SUFFIX = '.tmp';

// Owner-only unless the caller says otherwise, so a secret is never readable by others.
const DEFAULT_MODE = 0o600;

// Windows cannot open a folder to fsync it; NTFS journals the rename itself.
const FOLDERS_CAN_SYNC = process.platform !== 'win32';

export interface AtomicWriteOptions {
  /** the new file's permissions; 0o600 unless given */
  mode?: number;
  /** where the temp file is made (on the target's file system); the target's folder unless given */
  tempDir?: string;
  /**
   * false leaves the folder's fsync to the caller, for one that puts many files in a
   * folder and syncs it once at the end (storeBlobs)
   */
  syncFolder?: boolean;
}

/**
 * Puts `bytes` at `target` so that a reader (or a crash) sees the old file or the
 * whole new one, never a part: a temp file (created with `mode`, so a secret is
 * never readable by others), fsync, rename over the target, fsync the folder so
 * the rename itself survives a power cut. It holds the event loop for the whole
 * write and fsync, so it is kept for tiny files (keys, settings); anything that
 * may be large takes writeFileAtomicAsync.
 */
export function writeFileAtomic(target: string, bytes: Uint8Array, opts: { mode?: number } = {}): void {
  const dir = dirname(target);
  const temp = tempPathIn(dir);
  try {
    const fd = openSync(temp, 'wx', opts.mode ?? DEFAULT_MODE);
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

/**
 * writeFileAtomic with the same guarantees, asked of libuv's threads: the write
 * goes out in parts and the fsync waits off the event loop, so a 100 MB file does
 * not hold up every other request while it lands (one 50 MiB write and fsync held
 * the loop 35-150 ms).
 */
export async function writeFileAtomicAsync(target: string, bytes: Uint8Array, opts: AtomicWriteOptions = {}): Promise<void> {
  const temp = tempPathIn(opts.tempDir ?? dirname(target));
  try {
    const file = await open(temp, 'wx', opts.mode ?? DEFAULT_MODE);
    try {
      await file.writeFile(bytes);
      await file.sync();
    } finally {
      await file.close();
    }
    // rename replaces a symlink at `target` itself, never the file it points to.
    await rename(temp, target);
  } catch (err) {
    await rm(temp, { force: true });
    throw err;
  }
  if (opts.syncFolder !== false) await syncFolderAsync(dirname(target));
}

export function isTempName(path: string): boolean {
  const name = basename(path);
  return name.startsWith(TEMP_PREFIX) && name.endsWith(TEMP_SUFFIX);
}

export function syncFolder(dir: string): void {
  if (!FOLDERS_CAN_SYNC) return;
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

/** syncFolder off the event loop. */
export async function syncFolderAsync(dir: string): Promise<void> {
  if (!FOLDERS_CAN_SYNC) return;
  try {
    const handle = await open(dir, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // a file system that cannot sync folders still renamed atomically
  }
}

function tempPathIn(dir: string): string {
  return join(dir, `${TEMP_PREFIX}${randomBytes(8).toString('hex')}${TEMP_SUFFIX}`);
}
