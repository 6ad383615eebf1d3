import { createHmac, timingSafeEqual } from 'node:crypto';
import { ApiError } from '../api/errors.ts';
import type { Db } from '../db/engine.ts';
import type { NotACompanyKey } from '../access/company-key.ts';

/**
 * Feed cursors are opaque to clients: the position (a change number) with the
 * instance and company it belongs to, signed with the instance's cursor secret.
 * Anything this instance cannot vouch for is `gone` (410), which tells a client
 * to start a full pull: a garbled cursor, another instance's (the remote was
 * replaced), another company's, or one past the last change ever numbered here
 * (the remote was restored from a backup older than the cursor).
 */
export function encodeFeedCursor(secret: Buffer, instanceId: string, companyId: NotACompanyKey, seq: number): string {
  const payload = Buffer.from(JSON.stringify([instanceId, companyId, seq])).toString('base64url');
  return `${payload}.${mac(secret, payload)}`;
}

export async function decodeFeedCursor(secret: Buffer, db: Db, instanceId: string, companyId: NotACompanyKey, cursor: string): Promise<number> {
  const [payload, given, extra] = cursor.split('.');
  if (!payload || !given || extra !== undefined) throw gone('the cursor is not one of this feed');
  const expected = Buffer.from(mac(secret, payload));
  const got = Buffer.from(given);
  if (got.length !== expected.length || !timingSafeEqual(got, expected)) throw gone('the cursor is not one of this instance');
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    throw gone('the cursor is not one of this feed');
  }
  if (!Array.isArray(parsed) || parsed.length !== 3 || typeof parsed[2] !== 'number' || !Number.isSafeInteger(parsed[2])) {
    throw gone('the cursor is not one of this feed');
  }
  const [instance, company, seq] = parsed as [unknown, unknown, number];
  if (instance !== instanceId) throw gone('the cursor was made by another instance');
  if (company !== companyId) throw gone("the cursor belongs to another company's feed");
  if (seq < 0 || seq > (await highWater(db))) throw gone('the cursor is ahead of this feed (was the remote restored from a backup?)');
  return seq;
}

/**
 * The highest change number ever given out, committed or not (a cursor beyond it is
 * from the future). SQLite's AUTOINCREMENT keeps it even when that row moved; on
 * PostgreSQL it is the identity sequence's last value, which no rollback takes back.
 */
const HIGH_WATER_SQLITE = `SELECT seq FROM sqlite_sequence WHERE name = 'sync_changes'`;
const HIGH_WATER_PG = `SELECT coalesce(pg_sequence_last_value(pg_get_serial_sequence('sync_changes', 'seq')::regclass), 0) AS seq`;

export async function highWater(db: Db): Promise<number> {
  const row = await db.sqlFirst<{ seq: number }>(db.dialect === 'postgres' ? HIGH_WATER_PG : HIGH_WATER_SQLITE);
  return row?.seq ?? 0;
}

/**
 * Where a feed page read in a snapshot transaction may leave its reader: past every
 * change that snapshot holds, and none it does not. On SQLite, the one writer, that is
 * the high-water mark itself. On PostgreSQL a seq is given out before its transaction
 * commits, so the mark may name a change still under way: the newest change the
 * snapshot sees is the bound instead (synced writers commit in seq order,
 * pg/change-triggers.ts, so nothing below it can still appear).
 */
const SEEN_HIGH_WATER_PG = `SELECT coalesce(max(seq), 0) AS seq FROM sync_changes`;

export async function seenHighWater(db: Db): Promise<number> {
  if (db.dialect !== 'postgres') return highWater(db);
  return (await db.sqlFirst<{ seq: number }>(SEEN_HIGH_WATER_PG))?.seq ?? 0;
}

const gone = (why: string) => new ApiError('gone', `${why}; start a full pull without a cursor`);

function mac(secret: Buffer, payload: string): string {
  return createHmac('sha256', secret).update('sync-feed\0').update(payload).digest('base64url').slice(0, 32);
}
