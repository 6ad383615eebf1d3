/**
 * The change log (`sync_changes`) is the outbox and the feed at once: one row per
 * record, moved to a new seq and one version up by every change. The database writes
 * it (db/change-triggers.ts): every write to a synced table, whichever path makes it,
 * inside a transaction that names its origin (`db.tx(fn, { origin })`: `local`, or
 * the instance a synced change came from, so it is never pushed back there).
 */
export type SyncKind = 'entry' | 'attachment' | 'meta' | 'workflow' | 'series' | 'series_entry' | 'trusted_jwks';
