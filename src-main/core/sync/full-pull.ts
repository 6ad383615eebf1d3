import type { Db } from '../db/engine.ts';
import { LOCAL } from '../db/write-scopes.ts';
import { letOthersIn } from '../let-others-in.ts';
import type { CompanyKey } from '../access/company-key.ts';

/**
 * From the beginning of the remote's feed. `newRemote`: this company now syncs
 * with another instance, to which everything here is new; else the same remote
 * lost our cursor, and what we agreed on stays.
 *
 * For a new remote, every row of the change log goes back to being ours first, in
 * steps (a million entries' rows in one transaction held every request up for
 * seconds). A crash between steps leaves the config naming the old remote, so the
 * next sync starts this over, and a row reset twice is reset all the same.
 */
export async function startFullPull(db: Db, companyKey: CompanyKey, newRemote: boolean, sweepRows = SWEEP_ROWS): Promise<void> {
  if (newRemote) await inSeqSteps(db, companyKey, sweepRows, FORGET_ALL);
  await db.tx(async () => {
    await db.run(db.q.deleteFrom('sync_seen').where('company_id', '=', companyKey));
    await db.run(db.q.updateTable('sync_config').set({ pull_cursor: null, full_pull: 1 }).where('company_id', '=', companyKey));
  }, { origin: LOCAL });
}

/** Rows of the change log swept in one transaction: a full pull of a large company ends in short steps, others let in between. */
const SWEEP_ROWS = 2_000;

const FORGET_ALL = `UPDATE sync_changes SET origin = 'local', synced_version = NULL, remote_version = NULL
  WHERE company_id = ? AND seq > ? AND seq <= ?
    AND (origin IS NULL OR origin <> 'local' OR remote_version IS NOT NULL OR synced_version IS NOT NULL)`;
const FORGET_UNSEEN = `UPDATE sync_changes SET origin = 'local', synced_version = NULL, remote_version = NULL
  WHERE company_id = ? AND seq > ? AND seq <= ? AND remote_version IS NOT NULL
    AND NOT EXISTS (SELECT 1 FROM sync_seen s WHERE s.company_id = sync_changes.company_id
                    AND s.kind = sync_changes.kind AND s.record_id = sync_changes.record_id)`;
const CLEAR_SEEN = `DELETE FROM sync_seen WHERE company_id = ? AND (kind, record_id) IN
  (SELECT kind, record_id FROM sync_seen WHERE company_id = ? LIMIT ?)`;

/**
 * Records the remote once held but no longer serves go back to it; then the full pull
 * is over. Each step stands if a crash cuts it off: the sweep is safe to run again (what
 * it reset is no longer the remote's), so the pull is marked over only after it, and
 * what the pull saw is cleared last (a full pull starts by clearing it anyway).
 */
export async function finishFullPull(db: Db, companyKey: CompanyKey, sweepRows = SWEEP_ROWS): Promise<void> {
  await inSeqSteps(db, companyKey, sweepRows, FORGET_UNSEEN);
  await db.tx(() => db.run(db.q.updateTable('sync_config').set({ full_pull: 0 }).where('company_id', '=', companyKey)), { origin: LOCAL });
  while ((await db.tx(() => db.sqlRun(CLEAR_SEEN, [companyKey, companyKey, sweepRows]), { origin: LOCAL })).changes > 0) await letOthersIn();
}

/** Runs `update` (company, after, upTo) over the company's change log, `rows` seqs a transaction, letting others in between. */
async function inSeqSteps(db: Db, companyKey: CompanyKey, rows: number, update: string): Promise<void> {
  const range = await db.sqlFirst<{ low: number | string | null; high: number | string | null }>(
    'SELECT min(seq) AS low, max(seq) AS high FROM sync_changes WHERE company_id = ?',
    [companyKey],
  );
  if (range?.low == null || range.high == null) return;
  for (let after = Number(range.low) - 1; after < Number(range.high); after += rows) {
    await db.tx(() => db.sqlRun(update, [companyKey, after, after + rows]), { origin: LOCAL });
    await letOthersIn();
  }
}
