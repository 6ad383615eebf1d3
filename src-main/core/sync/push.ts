import { readFile } from 'node:fs/promises';
import type { PushResult } from '../api/contract/sync.ts';
import type { ErrorBody } from '../api/errors.ts';
import { BYTES_PER_TURN, hashBytesInTurns, type HashedBytes } from '../files/hashed-bytes.ts';
import { TurnBudget } from '../turn-budget.ts';
import { LOCAL } from '../db/write-scopes.ts';
import type { SyncKind } from './change-log.ts';
import { changeRow, isPending, pendingRows, type ChangeRow } from './change-rows.ts';
import { park, unpark } from './parked.ts';
import { pendingSigners, retrySignatureRefusals } from './signers.ts';
import { parentOfRow, readById } from './records/index.ts';
import { RemoteError } from './remote-client.ts';
import type { SyncRun } from './run-context.ts';

interface Outgoing {
  row: ChangeRow;
  record: unknown;
}

/**
 * Sends the outbox: this company's local changes the remote has not acknowledged,
 * in change order, trusted signers first (signers.ts), parents before children (an
 * entry before its attachments, a series before its entries; entries of a series
 * are in chain order already, since issued entries never move in the log).
 * Attachment bytes go first. Each acknowledgement is stored as the remote's
 * version of the record, so a push cut off anywhere resumes with what is left, and
 * a retried record the remote already took is recognised by its content and
 * answered `unchanged`.
 */
export async function pushChanges(run: SyncRun): Promise<{ conflicts: number }> {
  const { ctx, companyKey, options } = run;
  const { db } = ctx.service;
  run.progress.phase = 'push';
  // (The remote has this instance's keys from the identity handshake: identity.ts.)

  let conflicts = 0;
  // Signers first: a document they verify may sit earlier in the outbox (signers.ts).
  const signersSent = new Set<number>();
  const signers = await pendingSigners(db, companyKey);
  while (signers.length > 0 && !run.signal.aborted) {
    const outgoing: Outgoing[] = [];
    for (const row of signers) outgoing.push({ row, record: await readOf(run, row) });
    const batch = cutToSize(outgoing, options.batchBytes);
    signers.splice(0, batch.length);
    const outcomes = await send(run, batch);
    batch.forEach((o) => signersSent.add(o.row.seq));
    conflicts += outcomes.filter((o) => o === 'conflict').length;
    if (outcomes.includes('done')) await retrySignatureRefusals(db, companyKey, 'push');
  }

  let after = 0;
  // Parents already sent ahead of their children in this push: never sent ahead twice.
  const sentAhead = new Set<string>();
  for (;;) {
    if (run.signal.aborted) return { conflicts };
    const rows = await pendingRows(db, companyKey, after, options.batchSize);
    if (rows.length === 0) return { conflicts };
    const batch = cutToSize(await withParentsFirst(run, rows.filter((r) => !signersSent.has(r.seq)), sentAhead), options.batchBytes);
    if (batch.length === 0) {
      after = rows[rows.length - 1].seq;
      continue;
    }
    // Past the outbox rows this request carries (a parent pulled forward does not
    // count); rows it could not carry come again in the next one.
    const fetched = new Set(rows.map((r) => r.seq));
    after = Math.max(after, ...batch.map((o) => o.row.seq).filter((seq) => fetched.has(seq)));
    conflicts += (await send(run, batch)).filter((o) => o === 'conflict').length;
  }
}

/** One push request: the batch's bytes, then its records; each answer is stored as it came. */
async function send(run: SyncRun, batch: Outgoing[]): Promise<Outcome[]> {
  const { db, instanceId } = run.ctx.service;
  const body = {
    origin: instanceId,
    changes: batch.map(({ row, record }) => ({
      kind: row.kind,
      id: row.record_id,
      base_version: row.remote_version,
      ...(record === undefined ? { deleted: true } : { record }),
    })),
  };
  await uploadBlobs(run, batch);
  const { results } = await run.remote.pushSyncRecords({ body });
  // One result per record sent, in order: anything else cannot be matched up, and is not guessed at.
  if (results.length !== batch.length) {
    const message = `it answered ${results.length} results for ${batch.length} records`;
    throw new RemoteError(200, { key: 'bad-request', code: 'bad-request', message }, 'pushSyncRecords');
  }
  const outcomes = await db.tx(async () => {
    const done: Outcome[] = [];
    for (const [i, result] of results.entries()) done.push(await acknowledge(run, batch[i].row, result));
    return done;
  }, { origin: LOCAL });
  // Counted once the answers are stored: a transaction PostgreSQL runs again counts once.
  run.progress.pushed += outcomes.filter((o) => o === 'done').length;
  run.progress.parked += outcomes.filter((o) => o === 'parked').length;
  return outcomes;
}

const readOf = (run: SyncRun, row: ChangeRow) => readById(run.ctx, row.kind as SyncKind, row.record_id, { revealSecrets: true });

type Outcome = 'done' | 'conflict' | 'deferred' | 'parked';

async function acknowledge(run: SyncRun, row: ChangeRow, result: PushResult): Promise<Outcome> {
  const { db, instanceId } = run.ctx.service;
  const kind = row.kind as SyncKind;
  if (result.status === 'applied' || result.status === 'unchanged') {
    // The record may have changed again while the request was out: only what was sent is agreed.
    await db.run(
      db.q
        .updateTable('sync_changes')
        .set({ remote_version: result.version!, synced_version: row.version })
        .where('company_id', '=', run.companyKey)
        .where('kind', '=', kind)
        .where('record_id', '=', row.record_id)
        .where((eb) => eb.or([eb('synced_version', 'is', null), eb('synced_version', '<', row.version)])),
    );
    await unpark(db, run.companyKey, 'push', kind, row.record_id);
    return 'done';
  }
  if (result.status === 'conflict') {
    // The remote's newer version is our own earlier push whose answer was lost:
    // nothing to decide, the next push is based on it.
    if (result.current_origin === instanceId) {
      await db.run(
        db.q.updateTable('sync_changes').set({ remote_version: result.version! })
          .where('company_id', '=', run.companyKey).where('kind', '=', kind).where('record_id', '=', row.record_id),
      );
      return 'deferred';
    }
    // Decided when the pull brings the remote's version (it wins; ours is kept as a copy).
    return 'conflict';
  }
  const error = result.error as ErrorBody;
  // Waiting for an earlier record (a series entry after a gap) or a server fault: tried again next time.
  if (error.key === 'conflict' || error.key === 'internal' || error.key === 'unavailable') return 'deferred';
  await park(db, run.companyKey, 'push', { kind, id: row.record_id, entryId: row.entry_id }, row.version, error);
  return 'parked';
}

/**
 * An attachment (or meta) whose entry changed after it sits later in the log: the
 * entry goes first in the same request. Likewise a series before its entries.
 */
async function withParentsFirst(run: SyncRun, rows: ChangeRow[], sentAhead: Set<string>): Promise<Outgoing[]> {
  const { ctx, companyKey } = run;
  const out: Outgoing[] = [];
  const queued = new Set<string>();
  const read = (row: ChangeRow) => readOf(run, row);
  for (const row of rows) {
    const record = await read(row);
    const parent = parentOfRow(row, record);
    const parentKey = parent && `${parent.kind}/${parent.id}`;
    if (parent && parentKey && !queued.has(parentKey) && !sentAhead.has(parentKey)) {
      const parentRow = await changeRow(ctx.service.db, companyKey, parent.kind, parent.id);
      if (parentRow && parentRow.seq > row.seq && isPending(parentRow)) {
        out.push({ row: parentRow, record: await read(parentRow) });
        queued.add(parentKey);
        sentAhead.add(parentKey);
      }
    }
    const key = `${row.kind}/${row.record_id}`;
    if (queued.has(key)) continue;
    queued.add(key);
    out.push({ row, record });
  }
  return out;
}

/** At least one record; then as many as fit in `max` bytes of JSON. */
function cutToSize(items: Outgoing[], max: number): Outgoing[] {
  let size = 0;
  const out: Outgoing[] = [];
  for (const item of items) {
    const bytes = item.record === undefined ? 100 : JSON.stringify(item.record).length;
    if (out.length > 0 && size + bytes > max) break;
    size += bytes;
    out.push(item);
  }
  return out;
}

/**
 * Sends the bytes of the batch's attachments that the remote does not hold yet. Each file is
 * hashed again first, a part at a time: one damaged on this disk is not sent under a name it
 * does not hash to (the remote would refuse the whole request, at every try); its record is
 * then refused by the remote for want of its bytes, and parked with the reason. The files go
 * out encoded a part at a time as the request streams (remote-client.ts).
 */
async function uploadBlobs(run: SyncRun, batch: Outgoing[]): Promise<void> {
  const { remote, ctx, options } = run;
  const hashes = [
    ...new Set(
      batch
        .filter((o) => o.row.kind === 'attachment' && o.record !== undefined)
        .map((o) => (o.record as { hash: string }).hash),
    ),
  ];
  if (hashes.length === 0) return;
  const { missing } = await remote.findMissingSyncBlobs({ body: { hashes } });
  let group: Array<{ hash: string; data: HashedBytes }> = [];
  let size = 0;
  const flush = async () => {
    if (group.length === 0) return;
    await remote.putSyncBlobs({ body: { blobs: group } });
    group = [];
    size = 0;
  };
  const budget = new TurnBudget(BYTES_PER_TURN);
  for (const hash of missing) {
    const bytes = await hashBytesInTurns(await readFile(ctx.service.blobs.pathOf(hash)), budget);
    if (bytes.hash !== hash) {
      ctx.service.log?.(`sync ${ctx.caller.companyId}: file ${hash.slice(0, 12)}… is damaged on this computer (its bytes hash to ${bytes.hash.slice(0, 12)}…): not sent`);
      continue;
    }
    if (size > 0 && size + bytes.bytes.byteLength > options.blobBatchBytes) await flush();
    group.push({ hash, data: bytes });
    size += bytes.bytes.byteLength;
  }
  await flush();
}
