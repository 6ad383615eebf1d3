// An export is written to a file first and then served from it: memory stays flat however many
// entries it holds, and the answer has a Content-Length. Such files live in the blob store's
// temp folder, which every start empties, and are removed once a download has had its time.
import { createWriteStream, mkdirSync, readdirSync, rmSync, statSync, type WriteStream } from 'node:fs';
import { once } from 'node:events';
import { join } from 'node:path';
import { newUuidV7 as uuidv7 } from '../new-uuid.ts';
import type { Service } from '../service.ts';

/** How long a written export waits for its download before it is removed. */
const KEEP_MS = 30 * 60 * 1000;

function folderOf(service: Service): string {
  const folder = join(service.blobs.root, 'tmp', 'exports');
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  return folder;
}

/** Removes exports older than KEEP_MS (those a crash or a lost timer left behind). */
function sweep(folder: string, now = Date.now()): void {
  for (const name of readdirSync(folder)) {
    const path = join(folder, name);
    try {
      if (now - statSync(path).mtimeMs > KEEP_MS) rmSync(path, { force: true });
    } catch {
      // gone already
    }
  }
}

/** A file being written with backpressure: `write` waits while the stream's buffer is full. */
export interface DownloadFile {
  path: string;
  write(chunk: string | Uint8Array): Promise<void>;
  /** flushes and closes; answers the size written */
  finish(): Promise<number>;
  /** closes and removes the file (a failed export leaves nothing) */
  discard(): Promise<void>;
}

export function newDownloadFile(service: Service, extension: string): DownloadFile {
  const folder = folderOf(service);
  sweep(folder);
  const path = join(folder, `${uuidv7()}.${extension}`);
  const stream: WriteStream = createWriteStream(path, { mode: 0o600 });
  let failure: Error | undefined;
  stream.on('error', (err) => (failure = err));
  const closed = once(stream, 'close');
  // Awaited by finish or discard; marked handled so an error before then is not "unhandled".
  closed.catch(() => {});
  return {
    path,
    async write(chunk) {
      if (failure) throw failure;
      if (!stream.write(chunk)) await Promise.race([once(stream, 'drain'), closed]);
      if (failure) throw failure;
    },
    async finish() {
      stream.end();
      await closed;
      if (failure) throw failure;
      setTimeout(() => rmSync(path, { force: true }), KEEP_MS).unref();
      return statSync(path).size;
    },
    async discard() {
      stream.destroy();
      await closed.catch(() => {});
      rmSync(path, { force: true });
    },
  };
}
