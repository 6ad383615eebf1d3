import type { Selectable } from 'kysely';
import { newUuidV7 as uuidv7 } from '../new-uuid.ts';
import { badRequest, notFound } from '../api/errors.ts';
import type { Ctx } from '../api/handler.ts';
import type { SyncRecordOf } from '../api/contract/sync.ts';
import { nowIso } from '../clock.ts';
import type { SyncConflictsTable } from '../db/tables.ts';
import { digestOf } from '../gobl/index.ts';
import { findEntryRow } from '../silo/entries.ts';
import type { EntryRow } from '../silo/entry-view.ts';
import type { SyncKind } from './change-log.ts';
import { withActor } from '../silo/audit-actor.ts';
import { CONFLICTS_FOLDER, copyChildren, makeCopy, trashCopy, trashNewCopy, type CopyLink } from './conflict-copies.ts';
import { openClashFor, resolveKeyClash, type ClashResolution } from './key-clash.ts';
import { entryKind, entryRecordOf } from './records/entry.ts';
import { recordKinds, sameState } from './records/index.ts';
import { LOCAL } from '../db/write-scopes.ts';

type ConflictRow = Selectable<SyncConflictsTable>;
type EntryRecord = SyncRecordOf['entry'];

export { CONFLICT_META_KEY, CONFLICTS_FOLDER } from './conflict-copies.ts';

export interface Loss {
  kind: SyncKind;
  id: string;
  /** the local state that lost; undefined when the local side had deleted the record */
  loser: unknown;
  localVersion: number;
  remoteVersion: number;
  remoteOrigin: string;
  /** the winner deletes the entry: the copy takes its files and meta along */
  deletedByRemote?: boolean;
}

/**
 * Keeps the losing side of a conflict before the winner is written over it. For
 * an entry, the losing document becomes a new entry in the `conflicts` folder
 * (found, searched, opened and edited like any other), linked to the winner by its
 * `sync-conflict` meta. The copy syncs like any entry, so work done on it reaches
 * the remote and the other laptops. Every loser is also kept whole in the conflict row.
 */
export async function keepLoser(ctx: Ctx, loss: Loss): Promise<string> {
  const id = uuidv7();
  // The copy is sync's doing (history and the audit log say so), made for the instance whose version won.
  const bySync = { via: 'sync' as const, id: loss.remoteOrigin, name: `Sync: conflict with Silodesk instance ${loss.remoteOrigin}` };
  const copyId = loss.kind === 'entry' && loss.loser !== undefined
    ? await withActor(ctx.service.db, bySync, () =>
        makeCopy(ctx, loss.loser as EntryRecord, CONFLICTS_FOLDER, linkOf(id, loss), loss.deletedByRemote ? loss.id : undefined))
    : null;
  await ctx.service.db.run(
    ctx.service.db.q.insertInto('sync_conflicts').values({
      id,
      company_id: ctx.caller.companyKey,
      kind: loss.kind,
      record_id: loss.id,
      copy_entry_id: copyId,
      local_version: loss.localVersion,
      remote_version: loss.remoteVersion,
      remote_origin: loss.remoteOrigin,
      loser: JSON.stringify(loss.loser ?? null),
      created_at: nowIso(),
      resolved_at: null,
      resolution: null,
    }),
  );
  return id;
}

function linkOf(conflictId: string, loss: Loss): CopyLink {
  return {
    conflict_id: conflictId,
    entry_id: loss.id,
    local_version: loss.localVersion,
    remote_version: loss.remoteVersion,
    remote_origin: loss.remoteOrigin,
    holds: 'mine',
  };
}

export function conflictView(row: ConflictRow) {
  return {
    id: row.id,
    kind: row.kind as SyncKind,
    record_id: row.record_id,
    ...(row.copy_entry_id ? { copy_entry_id: row.copy_entry_id } : {}),
    local_version: row.local_version,
    remote_version: row.remote_version,
    remote_origin: row.remote_origin,
    loser: JSON.parse(row.loser) as unknown,
    reason: row.reason as 'version' | 'key-clash',
    ...(row.other_entry_id ? { other_entry_id: row.other_entry_id } : {}),
    created_at: row.created_at,
    ...(row.resolved_at ? { resolved_at: row.resolved_at } : {}),
    ...(row.resolution ? { resolution: row.resolution } : {}),
  };
}

export async function listConflicts(ctx: Ctx, q: { all: boolean; limit: number }) {
  const { db } = ctx.service;
  let query = db.q.selectFrom('sync_conflicts').selectAll().where('company_id', '=', ctx.caller.companyKey);
  if (!q.all) query = query.where('resolved_at', 'is', null);
  return { list: (await db.all(query.orderBy('created_at').orderBy('id').limit(q.limit))).map(conflictView) };
}

export async function openConflictCount(ctx: Ctx): Promise<number> {
  const { db } = ctx.service;
  const row = await db.first(
    db.q
      .selectFrom('sync_conflicts')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('company_id', '=', ctx.caller.companyKey)
      .where('resolved_at', 'is', null),
  );
  return row!.n;
}

/**
 * Resolving never deletes work. `remote`: the winner stays; my version (the copy,
 * as it is now, with its files and meta) moves to the trash (restorable until purged). `mine`: my version
 * (the copy's document as it is now, in case it was corrected meanwhile) is written
 * over the winner as a new local change, pushed at the next sync and accepted
 * there (it is based on the winner's version); the remote's version moves to the
 * trash in the copy's place. Resolving twice is a no-op.
 */
export async function resolveConflict(ctx: Ctx, id: string, how: ClashResolution) {
  const { db } = ctx.service;
  return await db.tx(async () => {
    // Locked on PostgreSQL: of two resolutions at once, the second finds it resolved.
    const row = await db.first(
      db.q
        .selectFrom('sync_conflicts')
        .selectAll()
        .where('id', '=', id)
        .where('company_id', '=', ctx.caller.companyKey)
        .$if(db.dialect === 'postgres', (qb) => qb.forUpdate()),
    );
    if (!row) throw notFound(`conflict ${id}`);
    if (row.resolved_at) return conflictView(row);
    if (row.reason === 'key-clash') {
      const values = { resolved_at: nowIso(), resolution: await resolveKeyClash(ctx, (await openClashFor(ctx, row.record_id))!, how) };
      await db.run(db.q.updateTable('sync_conflicts').set(values).where('id', '=', id));
      return conflictView({ ...row, ...values });
    }
    if (!('keep' in how)) throw badRequest('only a key clash is resolved by renaming; keep remote or mine', { '$.rename': 'not for this conflict' });
    const { keep } = how;
    let loser = row.loser;
    if (row.kind === 'entry') await resolveEntryConflict(ctx, row, keep);
    else if (keep === 'mine') {
      // Meta, files and workflows: the state given up is kept whole in this row — mine while the
      // conflict is open and with "keep remote", the remote's once mine replaced it (and a
      // workflow's in its version history too). A file's bytes stay in the content store.
      const kind = recordKinds[row.kind as SyncKind];
      const mine = JSON.parse(row.loser) as unknown;
      // The conflict row names the record as sync does: taken apart here, once.
      const ref: unknown = kind.refOf(row.record_id);
      if (ref === undefined) throw badRequest(`conflict ${id} names no ${row.kind}`, { id: 'not a record of its kind' });
      const current = await kind.read(ctx, ref, { revealSecrets: true });
      if (!sameState(kind.kind, current, mine)) {
        await kind.apply(ctx, ref, mine ?? null);
        loser = JSON.stringify(current ?? null);
      }
    }
    const values = { resolved_at: nowIso(), resolution: keep, loser };
    await db.run(db.q.updateTable('sync_conflicts').set(values).where('id', '=', id));
    return conflictView({ ...row, ...values });
  }, { origin: LOCAL });
}

async function resolveEntryConflict(ctx: Ctx, row: ConflictRow, keep: 'remote' | 'mine'): Promise<void> {
  const copy = row.copy_entry_id ? await findEntryRow(ctx, row.copy_entry_id) : undefined;
  const link = { ...baseLink(row), resolution: keep };
  if (keep === 'remote') {
    if (copy) await trashCopy(ctx, copy, { ...link, holds: 'mine' });
    return;
  }
  const theirs = await entryKind.read(ctx, row.record_id, { revealSecrets: true });
  const mine = copy ? restoredFromCopy(row, copy) : (JSON.parse(row.loser) as EntryRecord | null);
  if (sameState('entry', theirs, mine)) {
    if (copy) await trashCopy(ctx, copy, { ...link, holds: 'mine' });
    return;
  }
  // The remote's version is set aside before mine goes over it.
  if (theirs && copy) await trashCopy(ctx, copy, { ...link, holds: 'remote' }, theirs);
  else if (theirs) await trashNewCopy(ctx, theirs, { ...link, holds: 'remote' }, row.record_id);
  await entryKind.apply(ctx, row.record_id, mine);
  // The winner had deleted the entry: the files and meta the copy kept come back with it.
  if (copy && theirs === undefined && mine) {
    await copyChildren(ctx, copy.id, row.record_id);
    await trashCopy(ctx, copy, { ...link, holds: 'mine' });
  }
}

function baseLink(row: ConflictRow): CopyLink {
  return {
    conflict_id: row.id,
    entry_id: row.record_id,
    local_version: row.local_version,
    remote_version: row.remote_version,
    remote_origin: row.remote_origin,
    holds: 'mine',
  };
}

/**
 * The copy's document and labels, back under the original entry's id, folder and
 * key. A document left as it was takes back the original's signatures (the copy
 * holds it unsigned); a changed one is what the accountant now has, unsigned.
 */
function restoredFromCopy(row: ConflictRow, copy: EntryRow): EntryRecord {
  const loser = JSON.parse(row.loser) as EntryRecord;
  const current = entryRecordOf(copy);
  const unchanged = digestOf(current.data.doc ?? null).val === digestOf(loser.data.doc ?? null).val;
  const data = unchanged ? loser.data : withoutSigs({ ...current.data, head: { ...(current.data.head as Record<string, unknown>), uuid: row.record_id } });
  return { ...loser, tags: current.tags, state: current.state, data };
}

function withoutSigs(data: Record<string, unknown>): Record<string, unknown> {
  const { sigs: _none, ...rest } = data;
  return rest;
}
