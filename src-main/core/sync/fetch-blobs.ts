import { createHash } from 'node:crypto';
import type { SyncChange } from '../api/contract/sync.ts';
import { storeBlobs } from './blob-writes.ts';
import type { SyncRun } from './run-context.ts';

/** Attachment bytes the page references and this instance lacks, fetched before the page's transaction. */
export async function fetchBlobs(run: SyncRun, items: SyncChange[]): Promise<void> {
  const { blobs } = run.ctx.service;
  let wanted = [
    ...new Set(
      items
        .filter((i) => i.kind === 'attachment' && !i.deleted)
        .map((i) => (i.record as { hash?: unknown })?.hash)
        .filter((h): h is string => typeof h === 'string' && /^[0-9a-f]{64}$/.test(h) && !blobs.has(h)),
    ),
  ];
  while (wanted.length > 0) {
    const answer = await run.remote.json<{ blobs: Array<{ hash: string; data: string }>; missing: string[] }>(
      'POST',
      '/sync/v1/blobs/read',
      { hashes: wanted.slice(0, 200) },
    );
    // Never store bytes under a name they do not hash to.
    const good = answer.blobs.map((b) => ({ hash: b.hash, bytes: Buffer.from(b.data, 'base64') }))
      .filter((b) => createHash('sha256').update(b.bytes).digest('hex') === b.hash);
    await storeBlobs(blobs, good.map((b) => b.bytes));
    const done = new Set([...answer.blobs.map((b) => b.hash), ...answer.missing]);
    if (done.size === 0) return;
    wanted = wanted.filter((h) => !done.has(h));
  }
}
