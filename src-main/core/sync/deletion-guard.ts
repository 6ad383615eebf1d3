import { nowIso } from '../clock.ts';
import type { Db } from '../db/engine.ts';
import { LOCAL } from '../db/write-scopes.ts';
import { CONFLICTS_FOLDER } from './conflicts.ts';
import { RemoteError } from './remote-client.ts';
import { MassDeletionRefused, type SyncRun } from './run-context.ts';
import { loadConfig } from './settings.ts';
import type { CompanyKey } from '../access/company-key.ts';

/** How long deletions by the remote add up before the count starts over. */
export const GUARD_WINDOW_MS = 30 * 24 * 60 * 60_000;

/**
 * Entries here that the remote's changes after our cursor would delete, counted
 * before anything is applied (the feed's tombstones, by id, from the remote).
 */
export async function countRemoteDeletions(run: SyncRun): Promise<number> {
  const { db } = run.ctx.service;
  let cursor = (await loadConfig(db, run.companyKey))!.pull_cursor;
  let hit = 0;
  for (;;) {
    let page: { entry_ids: string[]; next_cursor: string; has_more: boolean };
    try {
      page = await run.remote.listSyncDeletions({ query: cursor ? { cursor } : {} });
    } catch (err) {
      // A cursor the remote does not know: counted from the start.
      if (err instanceof RemoteError && err.status === 410 && cursor) {
        cursor = null;
        continue;
      }
      throw err;
    }
    for (const id of page.entry_ids) if (await localEntryExists(db, run.companyKey, id)) hit++;
    if (!page.has_more) return hit;
    cursor = page.next_cursor;
  }
}

/**
 * The guard against a remote that empties this company, quickly or bit by bit.
 * Per sync: more than half of the entries here, and more than one. Over time:
 * the remote's deletions applied since the window began (`deleted`) plus these,
 * more than half of the most entries held since then (`peak`). So 10 → 6 → 3 → 1
 * over several syncs is refused as surely as 10 → 1 in one; entries added here
 * meanwhile raise the peak, so ordinary deletions among growing data pass.
 */
export class DeletionGuard {
  readonly peak: number;
  readonly deleted: number;
  readonly since: string;
  readonly #entriesNow: number;

  private constructor(peak: number, deleted: number, since: string, entriesNow: number) {
    this.peak = peak;
    this.deleted = deleted;
    this.since = since;
    this.#entriesNow = entriesNow;
  }

  /**
   * The window as it stands at the start of a pull (started over when older than GUARD_WINDOW_MS); saved at once,
   * in one transaction with what it was read from, so no other write to the window falls in between.
   */
  static async open(db: Db, companyKey: CompanyKey, now = Date.now()): Promise<DeletionGuard> {
    return await db.tx(async () => {
      const config = (await loadConfig(db, companyKey))!;
      const entries = await localEntryCount(db, companyKey);
      const since = config.guard_since ? Date.parse(config.guard_since) : NaN;
      // A window from the future (the clock went back) is as stale as an old one.
      const fresh = Number.isFinite(since) && since <= now && now - since < GUARD_WINDOW_MS;
      const guard = fresh
        ? new DeletionGuard(Math.max(config.guard_peak, entries), config.guard_deleted, config.guard_since!, entries)
        : new DeletionGuard(entries, 0, new Date(now).toISOString(), entries);
      await db.run(
        db.q
          .updateTable('sync_config')
          .set({ guard_peak: guard.peak, guard_deleted: guard.deleted, guard_since: guard.since })
          .where('company_id', '=', companyKey),
      );
      return guard;
    }, { origin: LOCAL });
  }

  /** Throws MassDeletionRefused when deleting `more` entries now would be too much. */
  check(more: number): void {
    const total = this.deleted + more;
    const perRun = more > 1 && more * 2 > this.#entriesNow;
    const overTime = total > 1 && total * 2 > this.peak;
    if (!perRun && !overTime) return;
    const history =
      this.deleted > 0
        ? `; with the ${this.deleted} the remote deleted since ${this.since}, that is ${total} of the ${this.peak} entries held then`
        : '';
    throw new MassDeletionRefused(
      `refused: this sync would delete ${more} of the ${this.#entriesNow} entries here${history} (more than half). Nothing was deleted. ` +
        'Check that the remote is the right one; to apply it anyway, sync once with allow_mass_deletion.',
    );
  }

  /** Deletions applied by a page: saved in the page's transaction. */
  static async add(db: Db, companyKey: CompanyKey, deleted: number): Promise<void> {
    if (deleted === 0) return;
    await db.run(
      db.q.updateTable('sync_config').set((eb) => ({ guard_deleted: eb('guard_deleted', '+', deleted) })).where('company_id', '=', companyKey),
    );
  }

  /** A person allowed the deletions: the window starts over from what is here now. */
  static async reset(db: Db, companyKey: CompanyKey): Promise<void> {
    const peak = await localEntryCount(db, companyKey);
    await db.run(
      db.q
        .updateTable('sync_config')
        .set({ guard_peak: peak, guard_deleted: 0, guard_since: nowIso() })
        .where('company_id', '=', companyKey),
    );
  }
}

/**
 * The company's entries outside the conflicts folder, in the trash or not: what the
 * triggers keep counted per folder (record-keeping-schema.ts), plus the trash, read
 * through its own index. Counting the entries themselves took 54 ms at a million, on
 * every pull.
 */
export async function localEntryCount(db: Db, companyKey: CompanyKey): Promise<number> {
  const kept = await db.sqlFirst<{ n: number | string }>(KEPT_COUNT, [companyKey, CONFLICTS_FOLDER]);
  const trashed = await db.sqlFirst<{ n: number | string }>(TRASHED_COUNT, [companyKey, CONFLICTS_FOLDER]);
  return Number(kept!.n) + Number(trashed!.n);
}

const KEPT_COUNT = 'SELECT coalesce(sum(count), 0) AS n FROM entry_folder_counts WHERE company_id = ? AND folder <> ?';
const TRASHED_COUNT = 'SELECT count(*) AS n FROM entries WHERE company_id = ? AND trashed_at IS NOT NULL AND folder <> ?';

export async function localEntryExists(db: Db, companyKey: CompanyKey, id: string): Promise<boolean> {
  return !!(await db.first(db.q.selectFrom('entries').select('id').where('company_id', '=', companyKey).where('id', '=', id)));
}
