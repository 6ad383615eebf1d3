import type { SyncChange } from '../api/contract/sync.ts';
import { ApiError, fieldsOf, toApiError } from '../api/errors.ts';
import { LOCAL } from '../db/write-scopes.ts';
import { changeRow, entriesWithPendingChanges, hasPendingChildren, isPending, markAgreed, rememberAgreed, type ChangeRow } from './change-rows.ts';
import { keepLoser, loserCopyAhead, type LoserCopyAhead } from './conflicts.ts';
import { recordFork, SeriesForked } from './forks.ts';
import { clashingHolder, closeClash, recordKeyClash } from './key-clash.ts';
import { park, unpark, unparkChildPushes } from './parked.ts';
import { isSyncKind, recordKinds, sameStateInTurns } from './records/index.ts';
import type { SyncRun } from './run-context.ts';
import type { SyncKind } from './change-log.ts';
import { prepareRecords, type PreparedRecord } from './prepared-records.ts';

export type PullOutcome = 'applied' | 'agreed' | 'skipped' | 'conflict' | 'parked' | 'repush' | 'fork';

/** What a pulled item's apply may need that is worked out before the page's transaction (pulledAhead). */
export interface PulledAhead {
  /** its record as parsed, with what its kind prepared for the write */
  prepared?: PreparedRecord;
  /** the copy of the local entry it would overwrite, should that be a conflict */
  loserCopy?: LoserCopyAhead;
}

/**
 * For the items of a pulled page, what their apply needs of GOBL, worked out before the
 * transaction that applies them (a large document: half a second, the database held meanwhile):
 * each record's own check (prepareRecords), and the copy of a large local entry, changed here
 * and not yet pushed, that the item would overwrite: the losing side of a conflict, kept.
 */
export async function pulledAhead(run: SyncRun, items: readonly SyncChange[]): Promise<Map<SyncChange, PulledAhead>> {
  const prepared = await prepareRecords(run.ctx, items, (item) => mayApplyPulled(run, item));
  const ahead = new Map<SyncChange, PulledAhead>([...prepared].map(([item, record]) => [item, { prepared: record }]));
  const pending = await entriesWithPendingChanges(run.ctx.service.db, run.companyKey, items.filter((i) => i.kind === 'entry').map((i) => i.id));
  for (const item of items) {
    if (!pending.has(item.id) || !(await mayOverwriteMine(run, item))) continue;
    const loserCopy = await loserCopyAhead(run.ctx, item.id);
    if (loserCopy) ahead.set(item, { ...ahead.get(item), loserCopy });
  }
  return ahead;
}

/** Whether a pulled entry would go over a local change not yet pushed (its own or its files' and meta's): a conflict unless both sides agree. */
async function mayOverwriteMine(run: SyncRun, item: SyncChange): Promise<boolean> {
  if (item.kind !== 'entry' || item.origin === run.ctx.service.instanceId) return false;
  const { db } = run.ctx.service;
  const row = await changeRow(db, run.companyKey, 'entry', item.id);
  if (agreedAlready(row, item)) return false;
  return isPending(row) || (item.deleted === true && (await hasPendingChildren(db, run.companyKey, item.id)));
}

/** One item in its own savepoint: an item that cannot be applied here is parked, the page goes on. */
export async function applyItemSafely(run: SyncRun, item: SyncChange, full: boolean, ahead?: PulledAhead): Promise<PullOutcome> {
  const { db } = run.ctx.service;
  // Seen by this full pull even if it cannot be applied here: the remote has it.
  if (full && isSyncKind(item.kind)) {
    await db.run(db.q.insertInto('sync_seen').values({ company_id: run.companyKey, kind: item.kind, record_id: item.id }).onConflict((oc) => oc.doNothing()));
  }
  try {
    // Sync's own bookkeeping is this instance's; only the record's write is the remote's (applyItem).
    return await db.tx(() => applyItem(run, item, full, ahead), { origin: LOCAL });
  } catch (err) {
    if (!isSyncKind(item.kind)) return 'skipped';
    if (err instanceof SeriesForked) {
      // Both chains kept: ours in the series, theirs beside it; nothing to retry.
      await recordFork(run.ctx, err, item.origin, 'pull');
      await unpark(db, run.companyKey, 'pull', item.kind, item.id);
      return 'fork';
    }
    const error = toApiError(err);
    if (error.key === 'internal') run.ctx.service.log?.(`sync: applying pulled ${item.kind} ${item.id} failed: ${(err as Error)?.stack ?? err}`);
    await park(db, run.companyKey, 'pull', { kind: item.kind, id: item.id }, item.version, error.toBody());
    // counted by the caller once its transaction has committed (PostgreSQL may run one again)
    return 'parked';
  }
}

/** Whether an item is at or below the remote version already agreed (`row`): a repeat, or in a full pull a sign the remote lost our later state. */
function agreedAlready(row: ChangeRow | undefined, item: SyncChange): row is ChangeRow & { remote_version: number } {
  return row !== undefined && row.remote_version !== null && item.version <= row.remote_version;
}

/** Whether a pulled item will be written at all, its change log row read first: asked before work worth sparing (prepared-records.ts). */
export async function mayApplyPulled(run: SyncRun, item: SyncChange): Promise<boolean> {
  return !agreedAlready(await changeRow(run.ctx.service.db, run.companyKey, item.kind as SyncKind, item.id), item);
}

/**
 * The rules, by server versions only:
 * - an item at or below the remote version already agreed is a repeat (skipped),
 *   except in a full pull, where it means the remote lost our later state: pushed again;
 * - the same state on both sides is simply agreed;
 * - a local change not yet pushed, against a newer remote version, is a conflict:
 *   the remote's version wins (the server took it first) and ours is kept;
 *   unless the remote's version is our own earlier push (its origin is us);
 * - otherwise the remote's state is written here.
 */
export async function applyItem(run: SyncRun, item: SyncChange, full: boolean, ahead: PulledAhead = {}): Promise<PullOutcome> {
  const { prepared } = ahead;
  const { ctx, companyKey, remoteInstanceId } = run;
  const { db, instanceId } = ctx.service;
  if (!isSyncKind(item.kind)) return 'skipped';
  const kind = recordKinds[item.kind];
  // The one place a pulled id is taken apart: from here on the record is named by its ref.
  const ref: unknown = kind.refOf(item.id);
  if (ref === undefined) throw new ApiError('validation', `not a ${item.kind} id`, { '$.id': item.id });
  let record: unknown = null;
  if (prepared) record = prepared.record;
  else if (!item.deleted) {
    const parsed = kind.schema.safeParse(item.record);
    if (!parsed.success) throw new ApiError('validation', `the pulled ${item.kind} is not valid`, fieldsOf(parsed.error, '$.record'));
    record = parsed.data;
  }
  const refused = item.kind === 'attachment' && record !== null ? run.refusedBlobs.get((record as { hash: string }).hash) : undefined;
  if (refused) throw new ApiError('validation', refused, { '$.record.hash': refused });
  const row = await changeRow(db, companyKey, item.kind, item.id);
  const local = await kind.read(ctx, ref, { revealSecrets: true });
  const same = await sameStateInTurns(item.kind, local, record);

  if (agreedAlready(row, item)) {
    if (!full || item.version === row.remote_version) return 'skipped';
    // The remote serves an older version than we agreed on: it was restored from a
    // backup. The same state is agreed again at its version; a state it lost goes
    // back up, based on what it has now.
    const pending = isPending(row);
    await db.run(
      db.q
        .updateTable('sync_changes')
        .set(same ? { remote_version: item.version, ...(pending ? {} : { synced_version: row.version }) } : { origin: 'local', remote_version: item.version, synced_version: null })
        .where('seq', '=', row.seq),
    );
    return same ? 'agreed' : 'repush';
  }
  if (same) {
    if (row) await markAgreed(db, row, item.version, row.version);
    else await rememberAgreed(db, companyKey, { kind: item.kind, id: item.id, entryId: kind.entryOf?.(ref) ?? null }, item.version, remoteInstanceId, record === null);
    await unpark(db, companyKey, 'pull', item.kind, item.id);
    if (item.kind === 'entry') await closeClash(ctx, item.id);
    return 'agreed';
  }
  // Another entry here took the same key: a key clash for a person to decide, not an error.
  const holder = item.kind === 'entry' && record !== null ? await clashingHolder(ctx, item.id, (record as { key?: string }).key) : undefined;
  if (holder) {
    await recordKeyClash(ctx, item, record as Parameters<typeof recordKeyClash>[2], holder);
    await unpark(db, companyKey, 'pull', item.kind, item.id);
    return 'conflict';
  }
  let outcome: PullOutcome = 'applied';
  // Deleting an entry deletes its files and meta too: unpushed changes to those are ours to keep.
  const deletesMine = item.kind === 'entry' && record === null && local !== undefined && (await hasPendingChildren(db, companyKey, item.id));
  if (isPending(row) || deletesMine) {
    if (item.origin === instanceId && row) {
      await db.run(db.q.updateTable('sync_changes').set({ remote_version: item.version }).where('seq', '=', row.seq));
      return 'skipped';
    }
    await keepLoser(ctx, {
      kind: item.kind,
      id: item.id,
      loser: local,
      localVersion: row?.version ?? 0,
      remoteVersion: item.version,
      remoteOrigin: item.origin,
      deletedByRemote: record === null,
    }, ahead.loserCopy);
    outcome = 'conflict';
  }
  // Written as the remote's change: recorded with its origin, so it is never pushed back.
  await db.tx(() => kind.apply(ctx, ref, record, prepared?.ahead), { origin: remoteInstanceId });
  if (item.kind === 'entry' && record === null) await unparkChildPushes(db, companyKey, item.id);
  const after = await changeRow(db, companyKey, item.kind, item.id);
  if (after) await markAgreed(db, after, item.version, after.version);
  await unpark(db, companyKey, 'pull', item.kind, item.id);
  if (item.kind === 'entry') await closeClash(ctx, item.id);
  return outcome;
}
