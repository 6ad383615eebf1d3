import { randomBytes } from 'node:crypto';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { TEMP_PREFIX, TEMP_SUFFIX } from './atomic-write.ts';
import type { BlobStore } from './blob-store.ts';
import type { HashedBytes } from './hashed-bytes.ts';

/**
 * Stores many attachment files at once with the content store's guarantees (temp
 * file, fsync, rename, then fsync of the folder, all before this resolves), but
 * asynchronously and several at a time: a sync moves thousands of files, and
 * doing them one by one on the main thread would hold up every other request
 * (or the window) for seconds, and leave the disk waiting on one fsync at a time.
 * One large upload's write and fsync alone held the event loop 35-150 ms (50 MiB).
 * Each folder is synced once however many files landed in it.
 */
export async function storeBlobs(blobs: BlobStore, items: HashedBytes[], concurrency = 8): Promise<void> {
  const folders = new Set<string>();
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      const { bytes, hash } = items[i];
      const target = blobs.pathOf(hash);
      if ((await blobs.sizeOf(hash)) === bytes.byteLength) continue;
      await mkdir(dirname(target), { recursive: true });
      await writeDurably(blobs.tempDir, target, bytes);
      folders.add(dirname(target));
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  await Promise.all([...folders].map(syncFolderAsync));
}

async function writeDurably(tempDir: string, target: string, bytes: Uint8Array): Promise<void> {
  const temp = join(tempDir, `${TEMP_PREFIX}${randomBytes(8).toString('hex')}${TEMP_SUFFIX}`);
  try {
    const file = await open(temp, 'wx', 0o600);
    try {
      await file.writeFile(bytes);
      await file.sync();
    } finally {
      await file.close();
    }
    await rename(temp, target);
  } catch (err) {
    await rm(temp, { force: true });
    throw err;
  }
}

async function syncFolderAsync(dir: string): Promise<void> {
  // Windows cannot open a folder to fsync it; NTFS journals the rename itself.
  if (process.platform === 'win32') return;
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
