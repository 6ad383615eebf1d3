import { mkdirSync, rmSync } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Content-addressed file storage: `files/ab/abcdef…` named by SHA-256. A file is
 * written to a temp name, fsynced and renamed into place (storeBlobs, blob-writes.ts),
 * so a crash leaves either the whole file or nothing; rows reference a hash only
 * after its file exists.
 */
export class BlobStore {
  readonly root: string;
  /** where files are written before they are renamed into place (storeBlobs), so a crash's leftovers are swept at the next start */
  readonly tempDir: string;

  constructor(root: string) {
    this.root = root;
    this.tempDir = join(root, 'tmp');
    mkdirSync(this.tempDir, { recursive: true });
  }

  pathOf(hash: string): string {
    if (!/^[0-9a-f]{64}$/.test(hash)) throw new Error('not a sha256 hash');
    return join(this.root, hash.slice(0, 2), hash);
  }

  /**
   * Whether the bytes are here, asked on libuv's threads: a look-up in a folder that a sync is
   * renaming files into can wait on the disk's journal, and on the event loop it held every
   * request up while it did.
   */
  async holds(hash: string): Promise<boolean> {
    try {
      await access(this.pathOf(hash));
      return true;
    } catch {
      return false;
    }
  }

  /** The size of the bytes stored under `hash`, or undefined when they are not here (asked as holds is). */
  async sizeOf(hash: string): Promise<number | undefined> {
    try {
      return (await stat(this.pathOf(hash))).size;
    } catch {
      return undefined;
    }
  }

  /** Leftovers of writes interrupted by a crash; safe because nothing references a temp file. */
  sweepTemp(): void {
    rmSync(this.tempDir, { recursive: true, force: true });
    mkdirSync(this.tempDir, { recursive: true });
  }
}
