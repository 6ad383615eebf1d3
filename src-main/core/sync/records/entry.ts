import { ApiError, validationError } from '../../api/errors.ts';
import type { Ctx } from '../../api/handler.ts';
import { entryRecord, type SyncRecordOf } from '../../api/contract/sync.ts';
import { deriveDocument, toEnvelope, type Envelope } from '../../silo/document.ts';
import { asAction } from '../../silo/audit-actor.ts';
import { dropVersions } from '../../silo/history.ts';
import { commitEntry, findAnyEntryRow, prepareEntry } from '../../silo/entries.ts';
import type { EntryRow } from '../../silo/entry-view.ts';
import { writeEntryChange } from '../../silo/patch.ts';
import { sameSignatures, sigsCheckFor } from '../../silo/signatures.ts';
import { recordChange } from '../change-log.ts';
import { clashingHolder } from '../key-clash.ts';
import type { RecordKind } from './kind.ts';

type EntryRecord = SyncRecordOf['entry'];

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export const entryKind: RecordKind<EntryRecord> = {
  kind: 'entry',
  schema: entryRecord,
  validId: (id) => UUID.test(id),
  read(ctx, id) {
    const row = findAnyEntryRow(ctx, id);
    return row ? entryRecordOf(row) : undefined;
  },
  // In the trash or not is part of the state (when it went there is not: no timestamps).
  content: (r) => ({ key: r.key ?? null, folder: r.folder, state: r.state, tags: r.tags, data: r.data, ...(r.trashed_at ? { trashed: true } : {}) }),
  apply(ctx, id, record) {
    const row = findAnyEntryRow(ctx, id);
    if (record === null) {
      if (row) applyDeletion(ctx, row);
      return;
    }
    if (record.id !== id) throw validationError('record id must equal the id in the path', { '$.record.id': `must equal ${id}` });
    refuseKeyClash(ctx, id, record.key);
    refuseUnverifiedSigs(ctx, id, row, record);
    const labels = { folder: record.folder, tags: record.tags, state: record.state };
    const trashed = record.trashed_at ? new Date(record.trashed_at).toISOString() : null;
    if (!row) {
      // The other instance accepted it; a document it stored flagged invalid stays flagged here.
      const { row: created } = commitEntry(ctx, prepareEntry(id, { data: record.data, key: record.key, ...labels, allow_invalid: true }));
      keepCreatedAt(ctx, id, record.created_at);
      // Pulled while in the trash there: it waits in the trash here too.
      if (trashed) writeEntryChange(ctx, { ...created, created_at: new Date(record.created_at).toISOString() }, deriveDocument(toEnvelope(id, record.data).envelope), { trashed });
      return;
    }
    const { store } = ctx.service;
    if ((row.key ?? undefined) !== record.key) {
      store.run(store.q.updateTable('entries').set({ key: record.key ?? null }).where('company_id', '=', row.company_id).where('id', '=', id));
    }
    writeEntryChange(ctx, { ...row, key: record.key ?? null }, deriveDocument(toEnvelope(id, record.data).envelope), { ...labels, trashed });
  },
};

/**
 * Another instance deleted an entry: there, entries are deleted only by a purge of
 * the trash, so it goes for good here too, whether in the trash here or not. Work done
 * on it here meanwhile is a conflict, and its losing side is kept (conflicts.ts).
 */
function applyDeletion(ctx: Ctx, row: EntryRow): void {
  asAction(ctx.service.store, 'purged', () => deleteEntry(ctx, row));
}

export function entryRecordOf(row: EntryRow): EntryRecord {
  return {
    id: row.id,
    ...(row.key !== null ? { key: row.key } : {}),
    folder: row.folder,
    state: row.state,
    tags: JSON.parse(row.tags) as string[],
    data: JSON.parse(row.data) as Record<string, unknown>,
    created_at: row.created_at,
    ...(row.trashed_at ? { trashed_at: row.trashed_at } : {}),
  };
}

/**
 * A key names one entry per company; a synced entry that would take another's key
 * is refused, not merged. A conflict, not a fault of the record: the pushing side
 * waits and retries, and decides (rename or merge) when it pulls the holder
 * (key-clash.ts).
 */
function refuseKeyClash(ctx: Ctx, id: string, key: string | undefined): void {
  const holder = clashingHolder(ctx, id, key);
  if (holder) {
    throw new ApiError('conflict', `key ${JSON.stringify(key)} is used by another entry here (${holder}): a key clash, decided where it is pulled`, {
      '$.record.key': `used by entry ${holder}`,
    });
  }
}

/**
 * A synced document's signatures verify here too, against the keys this company
 * trusts (the issuers paired through sync, this instance's own, trusted JWKS): no
 * other instance can seal a document with a signature nobody checked. Signatures
 * already stored on the entry, over the same document, were checked when they came.
 */
function refuseUnverifiedSigs(ctx: Ctx, id: string, row: EntryRow | undefined, record: EntryRecord): void {
  const next = toEnvelope(id, record.data).envelope;
  const stored = row ? (JSON.parse(row.data) as Envelope) : undefined;
  if (!sameSignatures(stored, next)) sigsCheckFor(ctx, '$.record.data')(next);
}

/** Lists sort by created_at: a synced entry keeps the moment it was first stored, on every instance. */
function keepCreatedAt(ctx: Ctx, id: string, createdAt: string): void {
  const { store } = ctx.service;
  const companyId = ctx.caller.companyId;
  const at = new Date(createdAt).toISOString();
  store.run(store.q.updateTable('entries').set({ created_at: at }).where('company_id', '=', companyId).where('id', '=', id));
  store.run(store.q.updateTable('mentions').set({ created_at: at }).where('company_id', '=', companyId).where('entry_id', '=', id));
}

/**
 * Removes an entry with everything that hangs on it (attachment rows, meta,
 * mentions, its search row, finished jobs, its versions and trashed files). The
 * attachment bytes stay in the content store. Refused while a job is working on the
 * entry. Only a purge of the trash comes here (trash-purge.ts, or a purge synced).
 */
export function deleteEntry(ctx: Ctx, row: EntryRow): void {
  const { store } = ctx.service;
  // The row's own company throughout: another company's entry under the same id is not touched.
  const companyId = row.company_id;
  const jobsOfEntry = store.q.selectFrom('jobs').where('company_id', '=', companyId).where('silo_entry_id', '=', row.id);
  const running = store.first(jobsOfEntry.select('id').where('completed_at', 'is', null));
  if (running) throw new ApiError('conflict', `entry ${row.id} has a job under way (${running.id}); it is deleted once the job ends`);
  store.run(store.q.deleteFrom('intents').where('company_id', '=', companyId).where('job_id', 'in', jobsOfEntry.select('id')));
  store.run(store.q.deleteFrom('jobs').where('company_id', '=', companyId).where('silo_entry_id', '=', row.id));
  dropVersions(store, companyId, row.id);
  store.statement('DELETE FROM trash_files WHERE company_id = ? AND entry_id = ?').run(companyId, row.id);
  store.statement('DELETE FROM entries_fts WHERE rowid = ?').run(row.seq);
  store.run(store.q.deleteFrom('entries').where('company_id', '=', companyId).where('id', '=', row.id));
  recordChange(store, { company_id: companyId, kind: 'entry', record_id: row.id, deleted: true });
}
