import type { Selectable } from 'kysely';
import { newUuidV7 as uuidv7 } from '../new-uuid.ts';
import { badRequest, notFound } from '../api/errors.ts';
import type { Ctx } from '../api/handler.ts';
import type { SyncRecordOf } from '../api/contract/sync.ts';
import { nowIso } from '../clock.ts';
import type { SyncConflictsTable } from '../db/tables.ts';
import { digestOf } from '../gobl/index.ts';
import { digestInTurns } from '../gobl/canonical-in-turns.ts';
import { isLargeDocument } from '../gobl/engine-thread/index.ts';
import { parseStoredJson } from '../api/json-in-turns.ts';
import { JsonText } from '../api/json-text.ts';
import { stringifyInTurns } from '../api/json-write-in-turns.ts';
import { isLargeStored } from '../silo/document.ts';
import { findAnyEntryRow, findEntryRow, type PreparedEntry } from '../silo/entries.ts';
import { digestOfRow } from '../silo/stored-schema.ts';
import type { EntryRow } from '../silo/entry-view.ts';
import type { SyncKind } from './change-log.ts';
import { withActor } from '../silo/audit-actor.ts';
import { CONFLICTS_FOLDER, copyAhead, copyChildren, makeCopy, trashCopy, trashNewCopy, type CopyLink } from './conflict-copies.ts';
import { clashAhead, openClashFor, resolveKeyClash, type ClashAhead, type ClashResolution } from './key-clash.ts';
import { entryAhead, entryKind, entryRecordInTurns } from './records/entry.ts';
import { recordKinds, sameState, sameStateInTurns } from './records/index.ts';
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
export async function keepLoser(ctx: Ctx, loss: Loss, ahead?: LoserCopyAhead): Promise<string> {
  const id = uuidv7();
  // The copy is sync's doing (history and the audit log say so), made for the instance whose version won.
  const bySync = { via: 'sync' as const, id: loss.remoteOrigin, name: `Sync: conflict with Silodesk instance ${loss.remoteOrigin}` };
  const copyId = loss.kind === 'entry' && loss.loser !== undefined
    ? await withActor(ctx.service.db, bySync, async () => {
        const copy = ahead && ahead.stamp === stampOf(await findAnyEntryRow(ctx, loss.id)) ? ahead.copy : undefined;
        return makeCopy(ctx, loss.loser as EntryRecord, CONFLICTS_FOLDER, linkOf(id, loss), loss.deletedByRemote ? loss.id : undefined, copy);
      })
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
      loser: (await stringifyInTurns(loss.loser ?? null))!,
      created_at: nowIso(),
      resolved_at: null,
      resolution: null,
    }),
  );
  return id;
}

/** keepLoser's copy of an entry, made ahead of the transaction that keeps it, and which state of the entry it was made of. */
export interface LoserCopyAhead {
  stamp: string;
  copy: PreparedEntry;
}

/** An entry row's state, told by its version and when it was written: any write changes one. */
const stampOf = (row: EntryRow | undefined): string | undefined => (row ? `${row.version} ${row.updated_at}` : undefined);

/**
 * The copy keepLoser would make of entry `id` as it stands here, prepared outside any transaction
 * when GOBL checks its document off the event loop: half a second for 13,000 lines, during which
 * the transaction that pulls the winner over it would hold the database. Undefined for a small one.
 */
export async function loserCopyAhead(ctx: Ctx, id: string): Promise<LoserCopyAhead | undefined> {
  const row = await findAnyEntryRow(ctx, id);
  if (!row || !isLargeStored(row.data)) return undefined;
  const copy = await copyAhead(ctx, await entryRecordInTurns(row), CONFLICTS_FOLDER);
  return copy && { stamp: stampOf(row)!, copy };
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

/** A conflict as answered; the state given up (a whole large document, it may be) goes into an answer HTTP writes as the text it is kept as. */
export async function conflictView(ctx: Ctx, row: ConflictRow) {
  return {
    id: row.id,
    kind: row.kind as SyncKind,
    record_id: row.record_id,
    ...(row.copy_entry_id ? { copy_entry_id: row.copy_entry_id } : {}),
    local_version: row.local_version,
    remote_version: row.remote_version,
    remote_origin: row.remote_origin,
    loser: (ctx.writesJson ? new JsonText(row.loser) : await parseStoredJson(row.loser)) as unknown,
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
  const rows = await db.all(query.orderBy('created_at').orderBy('id').limit(q.limit));
  return { list: await Promise.all(rows.map((row) => conflictView(ctx, row))) };
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
  const ahead = await resolutionAhead(ctx, id, how);
  const resolved = await db.tx(async (): Promise<ConflictRow> => {
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
    if (row.resolved_at) return row;
    if (row.reason === 'key-clash') {
      const values = { resolved_at: nowIso(), resolution: await resolveKeyClash(ctx, (await openClashFor(ctx, row.record_id))!, how, ahead?.clash) };
      await db.run(db.q.updateTable('sync_conflicts').set(values).where('id', '=', id));
      return { ...row, ...values };
    }
    if (!('keep' in how)) throw badRequest('only a key clash is resolved by renaming; keep remote or mine', { '$.rename': 'not for this conflict' });
    const { keep } = how;
    let loser = row.loser;
    if (row.kind === 'entry') await resolveEntryConflict(ctx, row, keep, ahead?.keepMine);
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
    return { ...row, ...values };
  }, { origin: LOCAL });
  return conflictView(ctx, resolved);
}

/**
 * What resolving a conflict writes, worked out before its transaction: GOBL's check of a large
 * document (half a second for 13,000 lines) and the reading and comparing of both versions would
 * hold the database meanwhile. The transaction uses it only when nothing it was made of changed.
 */
interface ResolutionAhead {
  clash?: ClashAhead;
  keepMine?: KeepMine;
}

async function resolutionAhead(ctx: Ctx, id: string, how: ClashResolution): Promise<ResolutionAhead | undefined> {
  const { db } = ctx.service;
  const row = await db.first(db.q.selectFrom('sync_conflicts').selectAll().where('id', '=', id).where('company_id', '=', ctx.caller.companyKey));
  if (!row || row.resolved_at) return undefined;
  if (row.reason === 'key-clash') {
    const clash = await openClashFor(ctx, row.record_id);
    return clash && { clash: await clashAhead(ctx, clash, how) };
  }
  if (row.kind !== 'entry' || !('keep' in how) || how.keep !== 'mine') return undefined;
  const { copy, entry } = await entriesOf(ctx, row);
  return { keepMine: await keepMine(ctx, row, copy, entry, true) };
}

/** The copy holding my version (while it is not in the trash) and the entry the remote's version is in. */
async function entriesOf(ctx: Ctx, row: ConflictRow): Promise<{ copy: EntryRow | undefined; entry: EntryRow | undefined }> {
  const copy = row.copy_entry_id ? await findEntryRow(ctx, row.copy_entry_id) : undefined;
  return { copy, entry: await findAnyEntryRow(ctx, row.record_id) };
}

/** "Keep mine" for an entry: both versions, whether they differ, and (ahead) what GOBL checks of each. */
interface KeepMine {
  /** the states of the copy and the entry it was worked out from */
  stamps: [string | undefined, string | undefined];
  theirs: EntryRecord | undefined;
  mine: EntryRecord | null;
  same: boolean;
  /** mine as the entry takes it */
  mineAhead?: PreparedEntry;
  /** theirs as the copy (or a new copy, without one) takes it */
  theirsAhead?: PreparedEntry;
}

async function keepMine(ctx: Ctx, row: ConflictRow, copy: EntryRow | undefined, entry: EntryRow | undefined, prepare: boolean): Promise<KeepMine> {
  const theirs = entry ? await entryRecordInTurns(entry) : undefined;
  const mine = copy ? await restoredFromCopy(row, copy) : ((await parseStoredJson(row.loser)) as EntryRecord | null);
  const same = await sameStateInTurns('entry', theirs, mine);
  const plan: KeepMine = { stamps: [stampOf(copy), stampOf(entry)], theirs, mine, same };
  if (same || !prepare) return plan;
  plan.mineAhead = mine ? await entryAhead(ctx, row.record_id, mine) : undefined;
  plan.theirsAhead = theirs ? await copyAhead(ctx, theirs, theirs.folder, copy?.id) : undefined;
  return plan;
}

async function resolveEntryConflict(ctx: Ctx, row: ConflictRow, keep: 'remote' | 'mine', ahead: KeepMine | undefined): Promise<void> {
  const { copy, entry } = await entriesOf(ctx, row);
  const link = { ...baseLink(row), resolution: keep };
  if (keep === 'remote') {
    if (copy) await trashCopy(ctx, copy, { ...link, holds: 'mine' });
    return;
  }
  const unchanged = ahead !== undefined && ahead.stamps[0] === stampOf(copy) && ahead.stamps[1] === stampOf(entry);
  const { theirs, mine, same, mineAhead, theirsAhead } = unchanged ? ahead : await keepMine(ctx, row, copy, entry, false);
  if (same) {
    if (copy) await trashCopy(ctx, copy, { ...link, holds: 'mine' });
    return;
  }
  // The remote's version is set aside before mine goes over it.
  if (theirs && copy) await trashCopy(ctx, copy, { ...link, holds: 'remote' }, theirs, theirsAhead);
  else if (theirs) await trashNewCopy(ctx, theirs, { ...link, holds: 'remote' }, row.record_id, theirsAhead);
  await entryKind.apply(ctx, row.record_id, mine, mineAhead);
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
async function restoredFromCopy(row: ConflictRow, copy: EntryRow): Promise<EntryRecord> {
  const loser = (await parseStoredJson(row.loser)) as EntryRecord;
  const current = await entryRecordInTurns(copy);
  // The copy's digest as its row holds it, worked out when it was written.
  const unchanged = digestOfRow(copy).val === (await digestOfDoc(loser.data.doc)).val;
  const data = unchanged ? loser.data : withoutSigs({ ...current.data, head: { ...(current.data.head as Record<string, unknown>), uuid: row.record_id } });
  return { ...loser, tags: current.tags, state: current.state, data };
}

/** digestOf a document, a large one worked out a piece at a time. */
async function digestOfDoc(doc: unknown): Promise<{ alg: string; val: string }> {
  return typeof doc === 'object' && doc !== null && isLargeDocument(doc) ? digestInTurns(doc) : digestOf(doc ?? null);
}

function withoutSigs(data: Record<string, unknown>): Record<string, unknown> {
  const { sigs: _none, ...rest } = data;
  return rest;
}
