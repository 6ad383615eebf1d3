import type { Db } from '../db/engine.ts';
import { CHANGE_LOG_LOCK } from '../db/pg/change-triggers.ts';

/**
 * Waits for the change log's turn, until the transaction ends. On PostgreSQL the
 * change triggers take this lock at a transaction's first recorded change, so synced
 * writes commit in the order of their seqs (the feed never passes one still under
 * way); sync takes it itself where it writes `sync_changes` without a trigger, or
 * where what it checks must not change before it writes (a pushed record's version).
 * SQLite has one writer at a time already: nothing to do.
 */
export async function lockChangeLog(db: Db): Promise<void> {
  if (db.dialect === 'postgres') await db.sql(`SELECT pg_advisory_xact_lock(?::bigint)`, [CHANGE_LOG_LOCK]);
}
