import type { Selectable } from 'kysely';
import { v7 as uuidv7 } from 'uuid';
import { badRequest, notFound } from '../api/errors.ts';
import type { Ctx } from '../api/handler.ts';
import type { SyncRecordOf } from '../api/contract/sync.ts';
import { nowIso } from '../clock.ts';
import type { SyncConflictsTable } from '../db/tables.ts';
import { commitEntry, findEntryRow, prepareEntry } from '../silo/entries.ts';
import { putMeta } from '../silo/meta.ts';
import { markLocalOnly, withOrigin, type SyncKind } from './change-log.ts';
import { attachmentKind, attachmentRecordOf } from './records/attachment.ts';
import { openClashFor, resolveKeyClash, type ClashResolution } from './key-clash.ts';
import { deleteEntry, entryRecordOf } from './records/entry.ts';
import { recordKinds, sameState } from './records/index.ts';
import { metaKind } from './records/meta.ts';

type ConflictRow = Selectable<SyncConflictsTable>;
type EntryRecord = SyncRecordOf['entry'];

/** Where the losing document of an entry conflict waits, as an entry of its own. */
export const CONFLICTS_FOLDER = 'conflicts';
/** Meta on the copy that links it to the winner. */
export const CONFLICT_META_KEY = 'sync-conflict';

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
 * (found, searched and opened like any other), linked to the winner by its
 * `sync-conflict` meta; every loser is also kept whole in the conflict row. The
 * copy is local: it is never pushed, so it cannot conflict in turn.
 */
export function keepLoser(ctx: Ctx, loss: Loss): string {
  const id = uuidv7();
  const copyId = loss.kind === 'entry' && loss.loser !== undefined ? makeCopy(ctx, id, loss, loss.deletedByRemote ?? false) : null;
  ctx.service.store.run(
    ctx.service.store.q.insertInto('sync_conflicts').values({
      id,
      company_id: ctx.caller.companyId,
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

function makeCopy(ctx: Ctx, conflictId: string, loss: Loss, withChildren: boolean): string {
  const { store } = ctx.service;
  const loser = loss.loser as EntryRecord;
  const copyId = uuidv7();
  const head = { ...(loser.data.head as Record<string, unknown>), uuid: copyId };
  markLocalOnly(store, copyId);
  withOrigin(store, null, () => {
    commitEntry(ctx, prepareEntry(copyId, { data: { ...loser.data, head }, folder: CONFLICTS_FOLDER, tags: loser.tags, state: loser.state, allow_invalid: true }));
    putMeta(ctx, copyId, CONFLICT_META_KEY, {
      src: 'sync',
      ref: loss.id,
      value: {
        conflict_id: conflictId,
        entry_id: loss.id,
        local_version: loss.localVersion,
        remote_version: loss.remoteVersion,
        remote_origin: loss.remoteOrigin,
      },
      shared: false,
      link_scope: '',
      link_url: '',
    });
    if (withChildren) copyChildren(ctx, loss.id, copyId);
  });
  return copyId;
}

/** The entry's files (the same stored bytes) and meta, onto its copy. */
function copyChildren(ctx: Ctx, fromId: string, toId: string): void {
  const { store } = ctx.service;
  for (const file of store.all(store.q.selectFrom('attachments').selectAll().where('entry_id', '=', fromId))) {
    store.run(store.q.insertInto('attachments').values({ ...file, entry_id: toId }).onConflict((oc) => oc.doNothing()));
  }
  for (const meta of store.all(store.q.selectFrom('entry_meta').selectAll().where('entry_id', '=', fromId))) {
    store.run(store.q.insertInto('entry_meta').values({ ...meta, entry_id: toId }).onConflict((oc) => oc.doNothing()));
  }
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

export function listConflicts(ctx: Ctx, q: { all: boolean; limit: number }) {
  const { store } = ctx.service;
  let query = store.q.selectFrom('sync_conflicts').selectAll().where('company_id', '=', ctx.caller.companyId);
  if (!q.all) query = query.where('resolved_at', 'is', null);
  return { list: store.all(query.orderBy('created_at').orderBy('id').limit(q.limit)).map(conflictView) };
}

export function openConflictCount(ctx: Ctx): number {
  const { store } = ctx.service;
  return store.first(
    store.q
      .selectFrom('sync_conflicts')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('company_id', '=', ctx.caller.companyId)
      .where('resolved_at', 'is', null),
  )!.n;
}

/**
 * `remote`: the winner stays, the copy goes. `mine`: the losing state is written
 * over the winner as a new local change (pushed at the next sync, based on the
 * winner's version, so it is accepted), taking the copy's document as it is now,
 * in case it was corrected meanwhile; then the copy goes. Resolving twice is a no-op.
 */
export function resolveConflict(ctx: Ctx, id: string, how: ClashResolution) {
  const { store } = ctx.service;
  return store.tx(() => {
    const row = store.first(store.q.selectFrom('sync_conflicts').selectAll().where('id', '=', id).where('company_id', '=', ctx.caller.companyId));
    if (!row) throw notFound(`conflict ${id}`);
    if (row.resolved_at) return conflictView(row);
    if (row.reason === 'key-clash') {
      const values = { resolved_at: nowIso(), resolution: resolveKeyClash(ctx, openClashFor(ctx, row.record_id)!, how) };
      store.run(store.q.updateTable('sync_conflicts').set(values).where('id', '=', id));
      return conflictView({ ...row, ...values });
    }
    if (!('keep' in how)) throw badRequest('only a key clash is resolved by renaming; keep remote or mine', { '$.rename': 'not for this conflict' });
    const { keep } = how;
    const kind = recordKinds[row.kind as SyncKind];
    const copy = row.copy_entry_id ? findEntryRow(ctx, row.copy_entry_id) : undefined;
    if (keep === 'mine') {
      const mine = copy ? restoredFromCopy(row, copy) : (JSON.parse(row.loser) as unknown);
      const current = kind.read(ctx, row.record_id, { revealSecrets: true });
      if (!sameState(kind.kind, current, mine)) kind.apply(ctx, row.record_id, mine ?? null);
      // The winner had deleted the entry: its files and meta come back with it.
      if (copy && current === undefined) restoreChildren(ctx, copy.id, row.record_id);
    }
    if (copy) withOrigin(store, null, () => deleteEntry(ctx, copy));
    const values = { resolved_at: nowIso(), resolution: keep };
    store.run(store.q.updateTable('sync_conflicts').set(values).where('id', '=', id));
    return conflictView({ ...row, ...values });
  });
}

/** The copy's document and labels, back under the original entry's id, folder and key. */
function restoredFromCopy(row: ConflictRow, copy: NonNullable<ReturnType<typeof findEntryRow>>): EntryRecord {
  const loser = JSON.parse(row.loser) as EntryRecord;
  const current = entryRecordOf(copy);
  return {
    ...loser,
    tags: current.tags,
    state: current.state,
    data: { ...current.data, head: { ...(current.data.head as Record<string, unknown>), uuid: row.record_id } },
  };
}

/** Files and meta of a copy, written back onto the entry as local changes (the link meta stays behind). */
function restoreChildren(ctx: Ctx, copyId: string, entryId: string): void {
  const { store } = ctx.service;
  for (const file of store.all(store.q.selectFrom('attachments').selectAll().where('entry_id', '=', copyId))) {
    attachmentKind.apply(ctx, `${entryId}:${file.id}`, { ...attachmentRecordOf(file), entry_id: entryId });
  }
  for (const meta of store.all(store.q.selectFrom('entry_meta').selectAll().where('entry_id', '=', copyId))) {
    if (meta.key === CONFLICT_META_KEY && meta.src === 'sync') continue;
    metaKind.apply(ctx, `${entryId}:${meta.src}:${meta.key}`, {
      entry_id: entryId, src: meta.src, key: meta.key, ref: meta.ref, value: JSON.parse(meta.value), shared: meta.shared === 1,
      link_scope: meta.link_scope, link_url: meta.link_url, created_at: meta.created_at, updated_at: meta.updated_at,
    });
  }
}
