import type { Store } from '../db/store.ts';
import { nowIso } from '../clock.ts';
import { keepRecordOf } from '../silo/record-keeping.ts';

export type SyncKind = 'entry' | 'attachment' | 'meta' | 'workflow' | 'series' | 'series_entry' | 'trusted_jwks';

export interface ChangeRef {
  company_id: string;
  kind: SyncKind;
  record_id: string;
  /** the change removed the record (a tombstone stays in the feed) */
  deleted?: boolean;
}

/**
 * Who the writes running now are made for. Every write path calls recordChange
 * with no idea why it is writing; sync, when it applies a record pulled from (or
 * pushed by) another instance, runs the same write paths inside `withOrigin`, so
 * the change is recorded as that instance's and is never pushed back. Writes are
 * synchronous (better-sqlite3), so a scope set around them cannot leak into
 * another request.
 */
const origins = new WeakMap<Store, string | null>();

/** `origin` null: record nothing. */
export function withOrigin<T>(store: Store, origin: string | null, fn: () => T): T {
  const had = origins.has(store);
  const previous = origins.get(store);
  origins.set(store, origin);
  try {
    return fn();
  } finally {
    if (had) origins.set(store, previous!);
    else origins.delete(store);
  }
}

/** Whose writes run now: `local`, another instance's id (sync applies its change), or null (record nothing). */
export function currentOrigin(store: Store): string | null {
  return origins.has(store) ? origins.get(store)! : 'local';
}

/**
 * Writes a record's change into the outbox/feed, in the caller's transaction (call
 * it right after the write it describes). The record's row moves to a new seq and
 * its version goes up by one; what the remote last agreed on is carried over, so
 * an unpushed change is simply `version > synced_version`.
 */
export function recordChange(store: Store, ref: ChangeRef): { seq: number; version: number } | undefined {
  const origin = origins.has(store) ? origins.get(store)! : 'local';
  // Every change is also put on record (entry history, audit log), here where no write path can miss it.
  keepRecordOf(store, ref, origin);
  if (origin === null) return undefined;
  // Two plain statements instead of one INSERT OR REPLACE … SELECT … LEFT JOIN: SQLite
  // plans the combined form poorly, and it cost ~5x more per write in an import profile.
  const old = store
    .statement('SELECT seq, version, remote_version, synced_version FROM sync_changes WHERE company_id = ? AND kind = ? AND record_id = ?')
    .get(ref.company_id, ref.kind, ref.record_id) as
    | { seq: number; version: number; remote_version: number | null; synced_version: number | null }
    | undefined;
  if (old) store.statement('DELETE FROM sync_changes WHERE seq = ?').run(old.seq);
  const version = (old?.version ?? 0) + 1;
  const { lastInsertRowid } = store
    .statement(
      `INSERT INTO sync_changes (company_id, kind, record_id, version, deleted, origin, remote_version, synced_version, at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(ref.company_id, ref.kind, ref.record_id, version, ref.deleted ? 1 : 0, origin, old?.remote_version ?? null, old?.synced_version ?? null, nowIso());
  return { seq: Number(lastInsertRowid), version };
}
