import type { AnswerOf } from '../api/client/client.ts';
import type { SyncChange } from '../api/contract/sync.ts';
import { ApiError } from '../api/errors.ts';
import { isOwnIdentity } from '../keys/identity.ts';
import { applyItemSafely, pulledAhead, type PullOutcome } from './apply-pulled.ts';
import type { SyncKind } from './change-log.ts';
import { countRemoteDeletions, DeletionGuard, localEntryExists } from './deletion-guard.ts';
import { fetchBlobs } from './fetch-blobs.ts';
import { finishFullPull, startFullPull } from './full-pull.ts';
import { settleClashes } from './key-clash.ts';
import { storeInstanceKeys } from './peer-keys.ts';
import { pullRetries, unpark } from './parked.ts';
import { retrySignatureRefusals } from './signers.ts';
import { RemoteError } from './remote-client.ts';
import type { SyncRun } from './run-context.ts';
import { loadConfig } from './settings.ts';
import { applyInSlices } from '../db/time-slices.ts';
import { LOCAL } from '../db/write-scopes.ts';

/**
 * Applies the remote's feed page by page; a page is applied in slices of a transaction
 * each (time-slices.ts), the last of them with the cursor after the page, so a pull cut
 * off anywhere (cancel, crash, kill) resumes at the first page not wholly applied, and
 * what is applied twice changes nothing. A cursor the remote no longer knows (410)
 * restarts a full pull from the beginning.
 */
export async function pullChanges(run: SyncRun): Promise<{ conflicts: number; complete: boolean }> {
  const { ctx, companyKey, remote, options, remoteInstanceId } = run;
  const { db, instanceId } = ctx.service;
  run.progress.phase = 'pull';
  await takeRemoteKeys(run);
  await retryParkedPulls(run);

  let restarted = false;
  let conflicts = 0;
  let signersTaken = false;
  // Counted over time, not per run: a remote that deletes a little at each sync is caught too.
  const guard = await DeletionGuard.open(db, companyKey);
  let deletedSoFar = 0;
  if (!run.allowMassDeletion) guard.check(await countRemoteDeletions(run));

  const fetchPage = (cursor: string | null, full: boolean): Promise<Fetched | { error: unknown }> => {
    // Our own pushes need not come back, except in a full pull, which checks everything.
    const query = { limit: options.pageSize, ...(cursor ? { cursor } : {}), ...(full ? {} : { exclude_origin: instanceId }) };
    return remote
      .listSyncChanges({ query })
      .then(async (page) => {
        const items = page.changes.flatMap((c) => [...(c.requires ?? []), c]);
        await fetchBlobs(run, items);
        return { page, items };
      })
      .catch((error: unknown) => ({ error }));
  };

  const config = (await loadConfig(db, companyKey))!;
  let full = config.full_pull === 1 || config.pull_cursor === null;
  let next = fetchPage(config.pull_cursor, full);
  for (;;) {
    const fetched: Fetched | { error: unknown } = await next;
    if ('error' in fetched) {
      const err = fetched.error;
      if (err instanceof RemoteError && err.status === 410 && !restarted) {
        restarted = true;
        await startFullPull(db, companyKey, false);
        full = true;
        next = fetchPage(null, true);
        continue;
      }
      throw err;
    }
    const { page, items } = fetched;
    if (page.instance_id !== remoteInstanceId) throw new ApiError('conflict', 'the remote changed identity during the sync');
    if (run.signal.aborted) return { conflicts, complete: false };
    // The next page travels while this one is applied.
    if (page.has_more) next = fetchPage(page.next_cursor, full);

    const deletions = new Set<SyncChange>();
    for (const i of items) if (i.kind === 'entry' && i.deleted && (await localEntryExists(db, companyKey, i.id))) deletions.add(i);
    if (!run.allowMassDeletion) guard.check(deletedSoFar + deletions.size);
    deletedSoFar += deletions.size;

    // The page is applied in slices (each item stands alone); the cursor moves with the last one.
    const ahead = await pulledAhead(run, items);
    const tally = await applyInSlices(db, items, async (item) => ({ kind: item.kind, outcome: await applyItemSafely(run, item, full, ahead.get(item)) }), {
      origin: LOCAL,
      close: async ({ from, done, last }) => {
        await DeletionGuard.add(db, companyKey, items.slice(from, from + done.length).filter((i) => deletions.has(i)).length);
        if (!last) return;
        await db.run(db.q.updateTable('sync_config').set({ pull_cursor: page.next_cursor }).where('company_id', '=', companyKey));
        if (!page.has_more && run.allowMassDeletion) await DeletionGuard.reset(db, companyKey);
      },
    });
    // Clashes this page (or an earlier one) freed the key of: each after the page, its document checked before its transaction.
    await settleClashes(ctx, remoteInstanceId);
    // A sweep of the whole change log: in steps of its own, after the last page (a crash before it ends runs it again).
    if (!page.has_more && full) await finishFullPull(db, companyKey);
    for (const { kind, outcome } of tally) {
      if (outcome === 'conflict') conflicts++;
      if (kind === 'trusted_jwks' && (outcome === 'applied' || outcome === 'conflict')) signersTaken = true;
      if (outcome === 'applied' || outcome === 'conflict') run.progress.pulled++;
    }
    countParked(run, tally.map((t) => t.outcome));
    if (!page.has_more) {
      // A signer taken now may verify a document that came before it in the feed (signers.ts).
      if (signersTaken && (await retrySignatureRefusals(db, companyKey, 'pull')) > 0) await retryParkedPulls(run);
      return { conflicts, complete: true };
    }
  }
}

interface Fetched {
  page: AnswerOf<'listSyncChanges'>;
  items: SyncChange[];
}

/**
 * The keys of the instances whose series this company receives through the remote
 * (the remote itself, and the instances its owner paired), kept for this company
 * only. Keys the remote names as this install's own are ignored: what this install
 * signed is checked against its own keys, whatever a remote says.
 */
async function takeRemoteKeys(run: SyncRun): Promise<void> {
  const { db, instanceId } = run.ctx.service;
  const answer = await run.remote.getSyncKeys();
  for (const set of answer.instances) {
    if ((await isOwnIdentity(db, instanceId, set.instance_id)) || set.keys.length === 0) continue;
    try {
      await storeInstanceKeys(db, run.companyKey, set.instance_id, set.keys);
    } catch (err) {
      // A kid already pinned to another key: that set is not taken; what it would verify is refused later.
      run.ctx.service.log?.(`sync ${run.ctx.caller.companyId}: keys of ${set.instance_id} not taken: ${(err as Error).message}`);
    }
  }
}

/** Pulled changes parked here and since retried: fetched again and applied. */
async function retryParkedPulls(run: SyncRun): Promise<void> {
  const { db } = run.ctx.service;
  for (const parked of await pullRetries(db, run.companyKey)) {
    let item: SyncChange;
    try {
      item = await run.remote.getSyncRecord({ params: { kind: parked.kind as SyncKind, id: parked.record_id } });
    } catch (err) {
      // The remote no longer has it at all: nothing left to apply.
      if (err instanceof RemoteError && err.status === 404) {
        await unpark(db, run.companyKey, 'pull', parked.kind as SyncKind, parked.record_id);
        continue;
      }
      throw err;
    }
    const group = [...(item.requires ?? []), item];
    await fetchBlobs(run, group);
    const ahead = await pulledAhead(run, group);
    const outcomes = await db.tx(async () => {
      const done: PullOutcome[] = [];
      for (const one of group) done.push(await applyItemSafely(run, one, false, ahead.get(one)));
      return done;
    }, { origin: LOCAL });
    countParked(run, outcomes);
  }
}

/** Items parked by a transaction that has committed. */
function countParked(run: SyncRun, outcomes: PullOutcome[]): void {
  run.progress.parked += outcomes.filter((o) => o === 'parked').length;
}
