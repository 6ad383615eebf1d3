import type { Selectable } from 'kysely';
import type { Store } from '../db/store.ts';
import type { SyncChangesTable } from '../db/tables.ts';
import type { SyncKind } from './change-log.ts';

export type ChangeRow = Selectable<SyncChangesTable>;

export function changeRow(store: Store, companyId: string, kind: SyncKind, recordId: string): ChangeRow | undefined {
  return store.first(
    store.q
      .selectFrom('sync_changes')
      .selectAll()
      .where('company_id', '=', companyId)
      .where('kind', '=', kind)
      .where('record_id', '=', recordId),
  );
}

/** A change made here that the remote has not acknowledged. */
export const isPending = (row: ChangeRow | undefined): boolean =>
  row !== undefined && row.origin === 'local' && (row.synced_version === null || row.version > row.synced_version);

/** Both sides hold the same state: remember which versions those were. */
export function markAgreed(store: Store, row: ChangeRow, remoteVersion: number, localVersion: number): void {
  store.run(
    store.q
      .updateTable('sync_changes')
      .set({ remote_version: remoteVersion, synced_version: localVersion })
      .where('seq', '=', row.seq),
  );
}

/**
 * Both sides agree on a record this instance never recorded: typically the remote's
 * tombstone of something it created and deleted between two pulls. The agreed
 * version is remembered here, so a later local change to the same id is based on
 * it and is accepted by the remote, rather than refused as a conflict that no
 * later pull would ever settle (the feed has moved past the tombstone).
 */
export function rememberAgreed(
  store: Store,
  companyId: string,
  record: { kind: SyncKind; id: string; entryId: string | null },
  remoteVersion: number,
  origin: string,
  deleted: boolean,
  at: string,
): void {
  store.run(
    store.q.insertInto('sync_changes').values({
      company_id: companyId,
      kind: record.kind,
      record_id: record.id,
      entry_id: record.entryId,
      version: 1,
      deleted: deleted ? 1 : 0,
      origin,
      remote_version: remoteVersion,
      synced_version: 1,
      at,
    }),
  );
}

/**
 * The pending rows of a company, in feed order, after `afterSeq`: the outbox.
 * The WHERE repeats the partial index's condition word for word so SQLite uses it.
 * A change parked at its current version waits for a retry; a newer change is tried again.
 */
export function pendingRows(store: Store, companyId: string, afterSeq: number, limit: number): ChangeRow[] {
  return store
    .statement(
      `SELECT c.* FROM sync_changes c
       WHERE c.company_id = ? AND c.seq > ?
         AND c.origin = 'local' AND (c.synced_version IS NULL OR c.version > c.synced_version)
         AND NOT EXISTS (SELECT 1 FROM sync_parked p WHERE p.company_id = c.company_id AND p.direction = 'push'
                         AND p.kind = c.kind AND p.record_id = c.record_id AND p.version = c.version)
       ORDER BY c.seq LIMIT ?`,
    )
    .all(companyId, afterSeq, limit) as ChangeRow[];
}

export function pendingCount(store: Store, companyId: string): number {
  return (store
    .statement(
      `SELECT count(*) AS n FROM sync_changes c
       WHERE c.company_id = ? AND c.origin = 'local' AND (c.synced_version IS NULL OR c.version > c.synced_version)
         AND NOT EXISTS (SELECT 1 FROM sync_parked p WHERE p.company_id = c.company_id AND p.direction = 'push'
                         AND p.kind = c.kind AND p.record_id = c.record_id AND p.version = c.version)`,
    )
    .get(companyId) as { n: number }
  ).n;
}

/** Unpushed local changes to an entry's attachments or meta (their rows name the entry). */
export function hasPendingChildren(store: Store, companyId: string, entryId: string): boolean {
  return (
    store
      .statement(
        `SELECT 1 FROM sync_changes
         WHERE company_id = ? AND entry_id = ?
           AND origin = 'local' AND (synced_version IS NULL OR version > synced_version) LIMIT 1`,
      )
      .get(companyId, entryId) !== undefined
  );
}

/**
 * A change row for a record that has none: one stored before the change log existed,
 * found when a peer pushes the same state (apply-pushed.ts). It is this instance's
 * state, version 1, as if just written here. Sync's own bookkeeping, no write of the
 * record: nothing goes on record for it.
 */
export function logUnlogged(store: Store, companyId: string, kind: SyncKind, recordId: string, entryId: string | null, at: string): void {
  store.run(
    store.q.insertInto('sync_changes').values({
      company_id: companyId, kind, record_id: recordId, entry_id: entryId, version: 1, deleted: 0, origin: 'local', remote_version: null, synced_version: null, at,
    }),
  );
}
