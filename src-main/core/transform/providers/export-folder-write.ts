import { lstat, readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { isTempName, writeFileAtomicAsync } from '../../files/atomic-write.ts';

const STALE_TEMP_MS = 60 * 60 * 1000;

/**
 * Puts `bytes` at dir/name atomically (see writeFileAtomicAsync), off the event
 * loop: an attachment may be 100 MB. A file already holding exactly these bytes
 * is left alone (its mtime too, so pollers do not import it again). Resolves to
 * whether it wrote.
 */
export async function writeExportFile(dir: string, name: string, bytes: Uint8Array): Promise<boolean> {
  const target = join(dir, name);
  if (await holdsBytes(target, bytes)) return false;
  await writeFileAtomicAsync(target, bytes, { mode: 0o644 });
  return true;
}

/** Removes temp files a crash left behind; recent ones may belong to a write still running. */
export async function sweepStaleTemps(dir: string, now: number = Date.now()): Promise<void> {
  for (const name of await readdir(dir)) {
    if (!isTempName(name)) continue;
    const path = join(dir, name);
    try {
      const stat = await lstat(path);
      if (stat.isFile() && now - stat.mtimeMs > STALE_TEMP_MS) await rm(path, { force: true });
    } catch {
      // gone already
    }
  }
}

async function holdsBytes(path: string, bytes: Uint8Array): Promise<boolean> {
  try {
    const stat = await lstat(path);
    if (!stat.isFile() || stat.size !== bytes.byteLength) return false;
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).equals(await readFile(path));
  } catch {
    return false;
  }
}
