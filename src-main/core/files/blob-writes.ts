import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { syncFolderAsync, writeFileAtomicAsync } from './atomic-write.ts';
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
      await writeFileAtomicAsync(target, bytes, { tempDir: blobs.tempDir, syncFolder: false });
      folders.add(dirname(target));
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  await Promise.all([...folders].map(syncFolderAsync));
}
