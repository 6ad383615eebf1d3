import type { Ctx } from '../api/handler.ts';
import type { SyncChange } from '../api/contract/sync.ts';
import type { SyncKind } from './change-log.ts';
import { changeRow, type ChangeRow } from './change-rows.ts';
import { LOCAL } from '../db/write-scopes.ts';
import { decodeFeedCursor, encodeFeedCursor, seenHighWater } from './feed-cursor.ts';
import { parentOfRow, readById } from './records/index.ts';
import type { ReadOptions } from './records/kind.ts';

export interface FeedPage {
  instance_id: string;
  company_id: string;
  changes: SyncChange[];
  next_cursor: string;
  has_more: boolean;
}

/**
 * The change feed of the caller's company: rows of the change log after the
 * cursor, each with the record's current state (log-compacted, so a record shows
 * once, at its latest change). A record whose parent moved past it in the log (an
 * attachment whose entry changed later) carries that parent in `requires`, so a
 * client can always apply a page in order.
 *
 * Read in one snapshot transaction: a change logged between reading the rows and
 * reading the newest change number would otherwise be passed over by the last page's
 * cursor (on PostgreSQL, READ COMMITTED would read them in two snapshots).
 */
export async function listChanges(ctx: Ctx, q: { cursor?: string; limit: number; exclude_origin?: string }): Promise<FeedPage> {
  const { db, instanceId, cursorSecret } = ctx.service;
  const companyKey = ctx.caller.companyKey;
  return db.tx(async () => {
    const from = q.cursor ? await decodeFeedCursor(cursorSecret, db, instanceId, ctx.caller.companyId, q.cursor) : 0;
    const exclude = q.exclude_origin === undefined ? undefined : q.exclude_origin === instanceId ? 'local' : q.exclude_origin;
    // Leaving an origin out, a page looks at no more than EXCLUDING_WINDOW changes: a laptop pulling after
    // pushing a million of its own once walked them all to find the few of others (77 ms a page at a million).
    const windowEnd = exclude === undefined ? undefined : await excludingWindowEnd(ctx, from);
    let query = db.q
      .selectFrom('sync_changes')
      .selectAll()
      .where('company_id', '=', companyKey)
      .where('seq', '>', from);
    if (windowEnd !== undefined) query = query.where('seq', '<=', windowEnd);
    if (exclude !== undefined) query = query.where('origin', '!=', exclude);
    const rows = await db.all(query.orderBy('seq').limit(q.limit + 1));
    const filled = rows.length > q.limit;
    if (filled) rows.pop();
    // A window that ended before the page filled: the next page starts after it, though this one is short (or empty).
    const hasMore = filled || windowEnd !== undefined;

    const opts = servedReadOptions(ctx);
    const changes: SyncChange[] = [];
    const started = performance.now();
    // On PostgreSQL each read is a round trip awaited, which lets others in already.
    const pageMs = db.dialect === 'sqlite' ? ctx.service.sync.options.feedPageMs : Infinity;
    for (const row of rows) {
      const change = await changeOf(ctx, row, opts);
      const parent = parentOfRow(row, change.record);
      const parentRow = parent ? await changeRow(db, companyKey, parent.kind, parent.id) : undefined;
      changes.push(parentRow && parentRow.seq > row.seq ? { ...change, requires: [await changeOf(ctx, parentRow, opts)] } : change);
      // Read in one snapshot, a page cannot let others in: a long one ends early instead (SyncOptions.feedPageMs).
      if (changes.length < rows.length && performance.now() - started > pageMs) break;
    }
    const cut = changes.length < rows.length;
    // On the last page the cursor moves to the newest change number even when the
    // rows at the end were left out (exclude_origin), so they are not read again.
    const nextSeq = filled || cut ? rows[changes.length - 1].seq : windowEnd !== undefined ? windowEnd : Math.max(from, await seenHighWater(db));
    return {
      instance_id: instanceId,
      company_id: ctx.caller.companyId,
      changes,
      next_cursor: encodeFeedCursor(cursorSecret, instanceId, ctx.caller.companyId, nextSeq),
      has_more: hasMore || cut,
    };
  }, { origin: LOCAL, snapshot: true });
}

/**
 * How the feed reads records for `ctx`'s answer. Secret step config (a webhook's bearer
 * token) leaves in full only for the owner, as the workflow API shows it; documents go
 * out as their stored text when the answer is written by writeJson (json-text.ts).
 */
export const servedReadOptions = (ctx: Ctx): ReadOptions => ({ revealSecrets: ctx.caller.kind === 'owner', documentAsText: ctx.writesJson === true });

/** Changes a page leaving an origin out looks at, at most. */
export const EXCLUDING_WINDOW = 5_000;

/**
 * The change number EXCLUDING_WINDOW changes after `from` (found along the feed's index
 * alone), or undefined when fewer follow: the page then reads to the end of the log.
 */
async function excludingWindowEnd(ctx: Ctx, from: number): Promise<number | undefined> {
  const { db } = ctx.service;
  const row = await db.first(
    db.q
      .selectFrom('sync_changes')
      .select('seq')
      .where('company_id', '=', ctx.caller.companyKey)
      .where('seq', '>', from)
      .orderBy('seq')
      .limit(1)
      .offset(EXCLUDING_WINDOW),
  );
  return row === undefined ? undefined : Number(row.seq) - 1;
}

/** One record as the feed serves it now: its current state, or a tombstone. */
export async function changeOf(ctx: Ctx, row: ChangeRow, opts: ReadOptions): Promise<SyncChange> {
  const record = await readById(ctx, row.kind as SyncKind, row.record_id, opts);
  return {
    seq: row.seq,
    kind: row.kind as SyncKind,
    id: row.record_id,
    version: row.version,
    origin: row.origin === 'local' ? ctx.service.instanceId : row.origin,
    ...(record === undefined ? { deleted: true as const } : { record }),
  };
}

/** Entries deleted after the cursor (ids only), for the client's mass-deletion check; read in one snapshot, as listChanges. */
export async function listDeletions(ctx: Ctx, q: { cursor?: string; limit: number }) {
  const { db, instanceId, cursorSecret } = ctx.service;
  const companyKey = ctx.caller.companyKey;
  return db.tx(async () => {
    const from = q.cursor ? await decodeFeedCursor(cursorSecret, db, instanceId, ctx.caller.companyId, q.cursor) : 0;
    const rows = await db.sql<{ seq: number; record_id: string }>(
      `SELECT seq, record_id FROM sync_changes WHERE company_id = ? AND seq > ? AND kind = 'entry' AND deleted = 1
       ORDER BY seq LIMIT ?`,
      [companyKey, from, q.limit + 1],
    );
    const hasMore = rows.length > q.limit;
    if (hasMore) rows.pop();
    const nextSeq = hasMore ? rows[rows.length - 1].seq : Math.max(from, await seenHighWater(db));
    return {
      entry_ids: rows.map((r) => r.record_id),
      next_cursor: encodeFeedCursor(cursorSecret, instanceId, ctx.caller.companyId, nextSeq),
      has_more: hasMore,
    };
  }, { origin: LOCAL, snapshot: true });
}
