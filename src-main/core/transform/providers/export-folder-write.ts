import { lstatSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { isTempName, writeFileAtomic } from '../../files/atomic-write.ts';

const STALE_TEMP_MS = 60 * 60 * 1000;

/**
 * Puts `bytes` at dir/name atomically (see writeFileAtomic). A file already
 * holding exactly these bytes is left alone (its mtime too, so pollers do not
 * import it again). Returns whether it wrote.
 */
export function writeExportFile(dir: string, name: string, bytes: Uint8Array): boolean {
  const target = join(dir, name);
  if (holdsBytes(target, bytes)) return false;
  writeFileAtomic(target, bytes, { mode: 0o644 });
  return true;
}

/** Removes temp files a crash left behind; recent ones may belong to a write still running. */
export function sweepStaleTemps(dir: string, now: number = Date.now()): void {
  for (const name of readdirSync(dir)) {
    if (!isTempName(name)) continue;
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
