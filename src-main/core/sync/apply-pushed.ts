import { ApiError, badRequest, fieldsOf, toApiError } from '../api/errors.ts';
import type { Ctx } from '../api/handler.ts';
import type { PushResult } from '../api/contract/sync.ts';
import { LOCAL } from '../db/write-scopes.ts';
import type { SyncKind } from './change-log.ts';
import { changeRow, logUnlogged, type ChangeRow } from './change-rows.ts';
import { lockChangeLog } from './change-log-lock.ts';
import { recordFork, SeriesForked } from './forks.ts';
import { checkOrigin } from './pairing.ts';
import { isSyncKind, recordKinds, sameStateInTurns } from './records/index.ts';
import { applyInSlices } from '../db/time-slices.ts';
import { prepareRecords, type PreparedRecord } from './prepared-records.ts';

export interface PushedChange {
  kind: string;
  id: string;
  base_version: number | null;
  deleted?: boolean;
  record?: unknown;
}

/**
 * Applies one record another instance pushed, as this instance's next version of
 * it. Accepted when the record is new here or this instance still holds the
 * version the change was based on; the same state again (a retry whose answer was
 * lost, or the same change made on both sides) answers `unchanged` with the
 * version held; anything else is a conflict, decided on the pushing side when it
 * pulls this instance's newer version. Call inside a transaction. `prepared`: the change's
 * record as parsed, with what its kind worked out for it ahead (prepared-records.ts).
 */
export async function applyPushedChange(ctx: Ctx, origin: string, change: PushedChange, prepared?: PreparedRecord): Promise<PushResult> {
  const { kind, id } = change;
  if (!isSyncKind(kind)) throw badRequest(`unknown record kind ${JSON.stringify(kind)}`, { kind: 'unknown kind' });
  const handler = recordKinds[kind];
  // The one place a pushed id is taken apart: from here on the record is named by its ref.
  const ref: unknown = handler.refOf(id);
  if (ref === undefined) throw badRequest(`not a ${kind} id: ${JSON.stringify(id)}`, { id: `not a ${kind} id` });
  let record: unknown = null;
  if (prepared) record = prepared.record;
  else if (!change.deleted) {
    const parsed = handler.schema.safeParse(change.record);
    if (!parsed.success) throw new ApiError('validation', `the ${kind} record is not valid`, fieldsOf(parsed.error, '$.record'));
    record = parsed.data;
  }

  const { db } = ctx.service;
  const companyKey = ctx.caller.companyKey;
  // The version checked is the one written over: on PostgreSQL, where pushes from two
  // instances run at once, none may write the record between this check and the write.
  await lockChangeLog(db);
  const row = await changeRow(db, companyKey, kind, id);
  const current = await handler.read(ctx, ref, { revealSecrets: true });
  const version = async () => (await changeRow(db, companyKey, kind, id))?.version ?? 0;

  if (await sameStateInTurns(kind, current, record)) {
    // Already this state. A record that predates the change log gets its row now.
    if (!row && current !== undefined) await logUnlogged(db, companyKey, kind, id, handler.entryOf?.(ref) ?? null);
    return { kind, id, status: 'unchanged', version: await version() };
  }
  // New here, or based on the version held: accepted. A deletion here is a version like any other.
  if (heldNewer(row, change)) {
    return { kind, id, status: 'conflict', version: row.version, current_origin: row.origin === 'local' ? ctx.service.instanceId : row.origin };
  }
  // Written as the pushing instance's change: the feed names it as the origin, and it never gets it back.
  await db.tx(() => handler.apply(ctx, ref, record, prepared?.ahead), { origin });
  return { kind, id, status: 'applied', version: await version() };
}

/**
 * Each item as its own savepoint: one bad record never stops the others. Items are
 * committed in slices (time-slices.ts), yielding in between, so a batch of 500
 * records from one laptop does not hold up every other request (another laptop's
 * sync, the web UI) for a second. Each item stands alone, so slicing changes no
 * outcome; a batch cut off by a crash is retried whole, and what was applied
 * answers `unchanged`.
 */
export async function applyPushedBatch(ctx: Ctx, origin: string, changes: PushedChange[]): Promise<PushResult[]> {
  await refuseOwnOrigin(ctx, origin);
  const prepared = await prepareRecords(ctx, changes, (change) => basedOnHeld(ctx, change));
  return applyInSlices(ctx.service.db, changes, (change) => applyOne(ctx, origin, change, prepared.get(change)), { origin: LOCAL });
}

async function applyOne(ctx: Ctx, origin: string, change: PushedChange, prepared: PreparedRecord | undefined): Promise<PushResult> {
  try {
    return await ctx.service.db.tx(() => applyPushedChange(ctx, origin, change, prepared), { origin: LOCAL });
  } catch (err) {
    if (err instanceof SeriesForked) await recordFork(ctx, err, origin, 'push');
    const error = toApiError(err);
    if (error.key === 'internal') ctx.service.log?.(`sync: applying ${change.kind} ${change.id} failed: ${(err as Error)?.stack ?? err}`);
    return { kind: change.kind, id: change.id, status: 'error' as const, error: error.toBody() };
  }
}

export async function applyPushedOne(ctx: Ctx, origin: string, kind: SyncKind, id: string, change: Omit<PushedChange, 'kind' | 'id'>): Promise<PushResult> {
  await refuseOwnOrigin(ctx, origin);
  const pushed = { ...change, kind, id };
  const prepared = (await prepareRecords(ctx, [pushed], (change) => basedOnHeld(ctx, change))).get(pushed);
  let result: PushResult;
  try {
    result = await ctx.service.db.tx(() => applyPushedChange(ctx, origin, pushed, prepared), { origin: LOCAL });
  } catch (err) {
    if (err instanceof SeriesForked) await recordFork(ctx, err, origin, 'push');
    throw err;
  }
  if (result.status === 'conflict') {
    throw new ApiError('conflict', `this instance holds version ${result.version} of ${kind} ${id}, newer than base_version`, {
      '$.base_version': `the current version is ${result.version}`,
    });
  }
  return result;
}

/** Whether this instance holds another version of the record (`row`) than the change was based on: a conflict, never written. */
function heldNewer(row: ChangeRow | undefined, change: PushedChange): row is ChangeRow {
  return row !== undefined && row.version !== change.base_version;
}

/** Whether a pushed change is new here or based on the version held, its change log row read first: asked before work worth sparing (prepared-records.ts). */
async function basedOnHeld(ctx: Ctx, change: PushedChange): Promise<boolean> {
  return !heldNewer(await changeRow(ctx.service.db, ctx.caller.companyKey, change.kind as SyncKind, change.id), change);
}

/** The origin is who the change is recorded for: never this instance, and a paired instance only through its own token. */
async function refuseOwnOrigin(ctx: Ctx, origin: string): Promise<void> {
  if (origin === ctx.service.instanceId) throw badRequest('origin is this instance itself', { '$.origin': 'must be the pushing instance' });
  await checkOrigin(ctx, origin);
}
