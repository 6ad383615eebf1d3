import { existsSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from './atomic-write.ts';
import type { HashedBytes } from './hashed-bytes.ts';

/**
 * Content-addressed file storage: `files/ab/abcdef…` named by SHA-256. A file is
 * written to a temp name, fsynced and renamed into place, so a crash leaves either
 * the whole file or nothing; rows reference a hash only after its file exists.
 */
export class BlobStore {
  readonly root: string;
  readonly #tmp: string;

  constructor(root: string) {
    this.root = root;
    this.#tmp = join(root, 'tmp');
    mkdirSync(this.#tmp, { recursive: true });
  }

  pathOf(hash: string): string {
    if (!/^[0-9a-f]{64}$/.test(hash)) throw new Error('not a sha256 hash');
    return join(this.root, hash.slice(0, 2), hash);
  }

  has(hash: string): boolean {
    return existsSync(this.pathOf(hash));
  }

  put({ bytes, hash }: HashedBytes): { hash: string; size: number } {
    const target = this.pathOf(hash);
    if (existsSync(target) && statSync(target).size === bytes.byteLength) return { hash, size: bytes.byteLength };

    mkdirSync(join(this.root, hash.slice(0, 2)), { recursive: true });
    // Temp files live in tmp/, so a crash's leftovers are swept at the next start.
    writeFileAtomic(target, bytes, { tempDir: this.#tmp });
    return { hash, size: bytes.byteLength };
  }

  /** Leftovers of writes interrupted by a crash; safe because nothing references a temp file. */
  sweepTemp(): void {
    rmSync(this.#tmp, { recursive: true, force: true });
    mkdirSync(this.#tmp, { recursive: true });
  }
}
