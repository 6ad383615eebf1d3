import { newUuidV7 as uuidv7 } from '../new-uuid.ts';
import { ApiError, conflict } from '../api/errors.ts';
import type { Ctx } from '../api/handler.ts';
import type { SyncChange, SyncRecordOf } from '../api/contract/sync.ts';
import { nowIso } from '../clock.ts';
import { findAnyEntryRow, type PreparedEntry } from '../silo/entries.ts';
import { parseStoredJson } from '../api/json-in-turns.ts';
import { stringifyInTurns } from '../api/json-write-in-turns.ts';
import { LOCAL } from '../db/write-scopes.ts';
import { changeRow, markAgreed } from './change-rows.ts';
import { entryAhead, entryKind, entryRecordInTurns } from './records/entry.ts';
import { loadConfig } from './settings.ts';

type EntryRecord = SyncRecordOf['entry'];
type ClashRow = NonNullable<Awaited<ReturnType<typeof openClashFor>>>;

// The side a person gives up in a merge goes to the trash, as a conflict's losing version does: kept, restorable, without its key.

/**
 * Two entries, made apart, that took the same key: the remote's (pulled) and one
 * here. Neither can take the other's key, so the remote's is not applied yet: it
 * waits in a conflict (reason `key-clash`) with both entries named, until a person
 * renames one of them or merges them (one stays, the other goes to the trash
 * without its key), or until the clash goes away by itself (one side's key
 * changed). Nothing is parked and nothing is lost.
 */
export async function clashingHolder(ctx: Ctx, id: string, key: string | undefined): Promise<string | undefined> {
  if (key === undefined) return undefined;
  const { db } = ctx.service;
  const row = await db.first(
    db.q.selectFrom('entries').select('id').where('company_id', '=', ctx.caller.companyKey).where('key', '=', key).where('id', '!=', id),
  );
  return row?.id;
}

/** Records (or updates) the clash of a pulled entry with the local entry `holderId`. */
export async function recordKeyClash(ctx: Ctx, item: SyncChange, record: EntryRecord, holderId: string): Promise<void> {
  const { db } = ctx.service;
  const open = await openClashFor(ctx, item.id);
  const values = {
    other_entry_id: holderId,
    loser: (await stringifyInTurns(record))!,
    remote_version: item.version,
    remote_origin: item.origin,
  };
  if (open) {
    await db.run(db.q.updateTable('sync_conflicts').set(values).where('id', '=', open.id));
    return;
  }
  const localVersion = (await changeRow(db, ctx.caller.companyKey, 'entry', holderId))?.version ?? 0;
  await db.run(
    db.q.insertInto('sync_conflicts').values({
      id: uuidv7(),
      company_id: ctx.caller.companyKey,
      kind: 'entry',
      record_id: item.id,
      copy_entry_id: null,
      local_version: localVersion,
      created_at: nowIso(),
      resolved_at: null,
      resolution: null,
      reason: 'key-clash',
      ...values,
    }),
  );
}

async function openClashFor(ctx: Ctx, recordId: string) {
  const { db } = ctx.service;
  return await db.first(
    db.q
      .selectFrom('sync_conflicts')
      .selectAll()
      .where('company_id', '=', ctx.caller.companyKey)
      .where('record_id', '=', recordId)
      .where('reason', '=', 'key-clash')
      .where('resolved_at', 'is', null),
  );
}

/** A newer state of the remote's entry was applied: an open clash about it is over. */
export async function closeClash(ctx: Ctx, recordId: string, resolution = 'superseded'): Promise<void> {
  const open = await openClashFor(ctx, recordId);
  if (open) await markResolved(ctx, open.id, resolution);
}

/**
 * Clashes whose key is free again (the local entry's key changed, or it is gone):
 * the waiting entry is applied as the remote has it. Runs after each pulled page, each
 * in a transaction of its own with its document checked before it (clashAhead).
 */
export async function settleClashes(ctx: Ctx, remoteInstanceId: string): Promise<void> {
  const { db } = ctx.service;
  const open = await db.all(
    db.q
      .selectFrom('sync_conflicts')
      .selectAll()
      .where('company_id', '=', ctx.caller.companyKey)
      .where('reason', '=', 'key-clash')
      .where('resolved_at', 'is', null),
  );
  for (const clash of open) {
    // A clash still waiting on a person (its key taken) costs one look-up a page; GOBL checks only one about to settle.
    const waiting = (await parseStoredJson(clash.loser)) as EntryRecord;
    if ((await clashingHolder(ctx, waiting.id, waiting.key)) !== undefined) continue;
    const ahead = await clashAhead(ctx, clash, { keep: 'remote' }, waiting);
    await db.tx(async () => {
      // As it was ahead, and the key still free, now that this transaction holds the database.
      const now = await openClashFor(ctx, clash.record_id);
      if (now === undefined || stampOf(now) !== ahead.stamp || (await clashingHolder(ctx, ahead.waiting.id, ahead.waiting.key)) !== undefined) return;
      await applyAsRemote(ctx, clash, ahead.applied, remoteInstanceId, ahead.prepared);
      await markResolved(ctx, clash.id, 'auto');
    }, { origin: LOCAL });
  }
}

export type ClashResolution = { keep: 'remote' | 'mine' } | { rename: { which: 'mine' | 'theirs'; key: string } };

/**
 * The remote's entry of a clash and how a resolution applies it, worked out before the resolution's
 * transaction: its document parsed, and checked by GOBL when large (half a second for 13,000 lines,
 * during which that transaction would hold the database). Used only while the clash holds the same
 * version of the remote's entry (a newer one pulled meanwhile takes its place).
 */
export interface ClashAhead {
  stamp: string;
  waiting: EntryRecord;
  applied: EntryRecord;
  prepared?: PreparedEntry;
}

const stampOf = (clash: ClashRow): string => `${clash.id} ${clash.remote_version}`;

/** `waiting`: the clash's remote entry, when already read from this very row. */
export async function clashAhead(ctx: Ctx, clash: ClashRow, how: ClashResolution, waiting?: EntryRecord): Promise<ClashAhead> {
  waiting ??= (await parseStoredJson(clash.loser)) as EntryRecord;
  const applied = appliedAs(waiting, how);
  return { stamp: stampOf(clash), waiting, applied, prepared: await entryAhead(ctx, applied.id, applied) };
}

/** The remote's entry as a resolution applies it: renamed, or in the trash without its key (keep mine), or as it is. */
function appliedAs(theirs: EntryRecord, how: ClashResolution): EntryRecord {
  if ('rename' in how) return how.rename.which === 'theirs' ? { ...theirs, key: how.rename.key } : theirs;
  return how.keep === 'mine' ? trashed(theirs) : theirs;
}

/**
 * - rename mine: my entry takes the new key (a local change, pushed); theirs is applied with its key;
 * - rename theirs: theirs is applied with the new key, as a local change based on the
 *   remote's version, so the rename goes back to the remote;
 * - keep remote (merge): theirs is applied; mine goes to the trash without its key;
 * - keep mine (merge): theirs is applied in the trash without its key (pushed back), mine keeps the key.
 * `ahead`: what clashAhead worked out for this resolution, taken while the clash is as it was then.
 */
export async function resolveKeyClash(ctx: Ctx, clash: ClashRow, how: ClashResolution, ahead?: ClashAhead): Promise<string> {
  const { db } = ctx.service;
  const { waiting: theirs, applied, prepared } = ahead?.stamp === stampOf(clash) ? ahead : await clashAhead(ctx, clash, how);
  // In the trash or not, it holds the key: it can be renamed or merged either way.
  const mine = clash.other_entry_id ? await findAnyEntryRow(ctx, clash.other_entry_id) : undefined;
  const remoteId = (await loadConfig(db, ctx.caller.companyKey))?.remote_instance_id ?? clash.remote_origin;
  if ('rename' in how) {
    const { which, key } = how.rename;
    if (key === theirs.key) throw new ApiError('validation', 'the new key must differ from the one both entries took', { '$.rename.key': 'choose another key' });
    const taken = await clashingHolder(ctx, which === 'mine' ? (mine?.id ?? '') : theirs.id, key);
    if (taken) throw conflict(`key ${JSON.stringify(key)} is used by entry ${taken}; choose another`);
    if (which === 'mine') {
      if (mine) await entryKind.apply(ctx, mine.id, { ...(await entryRecordInTurns(mine)), key });
      await applyAsRemote(ctx, clash, applied, remoteId, prepared);
    } else {
      await applyAsMine(ctx, clash, applied, prepared);
    }
    return `rename-${which}`;
  }
  if (how.keep === 'remote') {
    if (mine) await entryKind.apply(ctx, mine.id, trashed(await entryRecordInTurns(mine)));
    await applyAsRemote(ctx, clash, applied, remoteId, prepared);
  } else {
    await applyAsMine(ctx, clash, applied, prepared);
  }
  return how.keep;
}

/** The side given up in a merge: into the trash (restorable until purged), without the key the other keeps. */
function trashed(record: EntryRecord): EntryRecord {
  const out: EntryRecord = { ...record, trashed_at: nowIso() };
  delete out.key;
  return out;
}

/** The remote's state, recorded as the remote's and agreed at its version: nothing to push. */
async function applyAsRemote(ctx: Ctx, clash: ClashRow, record: EntryRecord, remoteInstanceId: string, prepared: PreparedEntry | undefined): Promise<void> {
  const { db } = ctx.service;
  await db.tx(() => entryKind.apply(ctx, record.id, record, prepared), { origin: remoteInstanceId });
  const row = await changeRow(db, ctx.caller.companyKey, 'entry', record.id);
  if (row) await markAgreed(db, row, clash.remote_version, row.version);
}

/** A state of the remote's entry decided here: a local change based on the remote's version, so it is pushed and accepted. */
async function applyAsMine(ctx: Ctx, clash: ClashRow, record: EntryRecord, prepared: PreparedEntry | undefined): Promise<void> {
  const { db } = ctx.service;
  await entryKind.apply(ctx, record.id, record, prepared);
  const row = await changeRow(db, ctx.caller.companyKey, 'entry', record.id);
  if (row) {
    await db.run(
      db.q.updateTable('sync_changes').set({ origin: 'local', remote_version: clash.remote_version, synced_version: null }).where('seq', '=', row.seq),
    );
  }
}

async function markResolved(ctx: Ctx, id: string, resolution: string): Promise<void> {
  const { db } = ctx.service;
  await db.run(db.q.updateTable('sync_conflicts').set({ resolved_at: nowIso(), resolution }).where('id', '=', id));
}

export { openClashFor };
