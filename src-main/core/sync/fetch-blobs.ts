import type { SyncChange } from '../api/contract/sync.ts';
import { storeBlobs } from '../files/blob-writes.ts';
import { bytesOf, type HashedBytes } from '../files/hashed-bytes.ts';
import { companyHeldSize, grantBlobs, READ_BUDGET_BYTES } from './blobs.ts';
import { RemoteTooLarge } from './remote-client.ts';
import type { SyncRun } from './run-context.ts';

/**
 * The most an honest answer holds: one file of `maxBytes`, or the remote's read
 * budget of smaller ones (blobs.ts), in base64 with a little JSON around it.
 */
const answerCap = (maxBytes: number) => Math.ceil((Math.max(maxBytes, READ_BUDGET_BYTES) * 4) / 3) + 64 * 1024;

/**
 * Attachment bytes the page references and this company does not hold yet,
 * fetched before the page's transaction. The remote is not trusted with them:
 * a file over the attachment cap is refused whatever size its record declares
 * (the answer is cut off as it streams in, never held whole), bytes that do not
 * hash to their name are dropped, and what is refused is remembered for this run
 * so the record that needs it is parked with the reason (apply-pulled.ts).
 * Bytes another company here holds are fetched all the same: only what the
 * remote sends for this company becomes this company's (grantBlobs).
 */
export async function fetchBlobs(run: SyncRun, items: SyncChange[]): Promise<void> {
  const { ctx, options } = run;
  const maxBytes = options.maxBlobBytes;
  let wanted: string[] = [];
  for (const item of items) {
    if (item.kind !== 'attachment' || item.deleted) continue;
    const { hash, size } = (item.record ?? {}) as { hash?: unknown; size?: unknown };
    if (typeof hash !== 'string' || !/^[0-9a-f]{64}$/.test(hash) || wanted.includes(hash)) continue;
    if (typeof size === 'number' && size > maxBytes) {
      refuse(run, hash, `refused: the remote's file is ${size} bytes; the limit is ${maxBytes}`);
      continue;
    }
    if ((await companyHeldSize(ctx, hash)) === undefined) wanted.push(hash);
  }
  while (wanted.length > 0) {
    const group = wanted.slice(0, 200);
    let answer: { blobs: Array<{ hash: string; data: string | HashedBytes }>; missing: string[] };
    try {
      answer = await run.remote.readSyncBlobs({ body: { hashes: group } }, { maxResponseBytes: answerCap(maxBytes) });
    } catch (err) {
      if (!(err instanceof RemoteTooLarge)) throw err;
      // Too much at once: one by one, so only the file that is too big is refused.
      if (group.length > 1) {
        for (const hash of group) await fetchOne(run, hash);
      } else {
        refuse(run, group[0], `refused: the remote sent more than the ${maxBytes}-byte limit for this file`);
      }
      wanted = wanted.filter((h) => !group.includes(h));
      continue;
    }
    const done = await keep(run, answer.blobs);
    for (const h of answer.missing) done.add(h);
    if (done.size === 0) return;
    wanted = wanted.filter((h) => !done.has(h));
  }
}

async function fetchOne(run: SyncRun, hash: string): Promise<void> {
  try {
    const answer = await run.remote.readSyncBlobs({ body: { hashes: [hash] } }, { maxResponseBytes: answerCap(run.options.maxBlobBytes) });
    await keep(run, answer.blobs);
  } catch (err) {
    if (!(err instanceof RemoteTooLarge)) throw err;
    refuse(run, hash, `refused: the remote sent more than the ${run.options.maxBlobBytes}-byte limit for this file`);
  }
}

/**
 * Stores what is within the cap and hashes to its name; answers the hashes dealt with. A large
 * file comes decoded and hashed already, a part at a time (remote-client.ts); a small one is
 * decoded here.
 */
async function keep(run: SyncRun, blobs: Array<{ hash: string; data: string | HashedBytes }>): Promise<Set<string>> {
  const { ctx, options } = run;
  const done = new Set<string>();
  const good: HashedBytes[] = [];
  for (const b of blobs) {
    done.add(b.hash);
    const hashed = bytesOf(b.data);
    const size = hashed.bytes.byteLength;
    if (size > options.maxBlobBytes) {
      refuse(run, b.hash, `refused: the remote sent ${size} bytes for this file; the limit is ${options.maxBlobBytes}`);
      continue;
    }
    // Never stored under a name they do not hash to.
    if (hashed.hash === b.hash) good.push(hashed);
  }
  await storeBlobs(ctx.service.blobs, good);
  await grantBlobs(ctx.service.db, run.companyKey, good.map((b) => b.hash));
  return done;
}

function refuse(run: SyncRun, hash: string, why: string): void {
  run.refusedBlobs.set(hash, why);
  run.ctx.service.log?.(`sync ${run.ctx.caller.companyId}: file ${hash.slice(0, 12)}…: ${why}`);
}
