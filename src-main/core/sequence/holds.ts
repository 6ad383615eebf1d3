import { nowIso } from '../clock.ts';
import type { Db } from '../db/engine.ts';
import type { CompanyKey } from '../access/company-key.ts';

/**
 * Why a series this install issues may not be numbered for now:
 * - `restored`: the data folder was found restored from a backup or copied, so the
 *   remote may hold numbers issued after the copy; released once this side has
 *   caught up with the remote's head of the series;
 * - `fork`: the issuer's chain and another were found at the same index; released
 *   by hand once someone has sorted it out.
 */
export type HoldReason = 'restored' | 'fork';

/** PostgreSQL only (SQLite's write transaction is the only one): the series row, locked until the transaction ends. */
const LOCK_SERIES_PG = 'SELECT 1 FROM series WHERE company_id = ? AND id = ? FOR UPDATE';

export async function holdSeries(db: Db, companyKey: CompanyKey, seriesId: string, reason: HoldReason): Promise<void> {
  // An issue reads the hold with the series row locked (issue.ts): on PostgreSQL a hold set
  // meanwhile waits for that lock, so no number is issued past a hold already in force.
  if (db.dialect === 'postgres') await db.sql(LOCK_SERIES_PG, [companyKey, seriesId]);
  await db.run(
    db.q
      .insertInto('series_holds')
      .values({ series_id: seriesId, company_id: companyKey, reason, since: nowIso() })
      // a fork outranks a restore: catching up does not settle it
      .onConflict((oc) => (reason === 'fork' ? oc.columns(['company_id', 'series_id']).doUpdateSet({ reason }) : oc.doNothing())),
  );
}

// Series ids are unique only within a company: a hold is always the company's own.
export async function holdOf(db: Db, companyKey: CompanyKey, seriesId: string): Promise<{ reason: HoldReason; since: string } | undefined> {
  // Raw SQL: asked before every number issued.
  const row = await db.sqlFirst<{ reason: string; since: string }>('SELECT reason, since FROM series_holds WHERE company_id = ? AND series_id = ?', [companyKey, seriesId]);
  return row ? { reason: row.reason as HoldReason, since: row.since } : undefined;
}

export async function heldSeries(db: Db, companyKey: CompanyKey, reason?: HoldReason): Promise<string[]> {
  let q = db.q.selectFrom('series_holds').select('series_id').where('company_id', '=', companyKey);
  if (reason) q = q.where('reason', '=', reason);
  return (await db.all(q.orderBy('series_id'))).map((r) => r.series_id);
}

export async function releaseHold(db: Db, companyKey: CompanyKey, seriesId: string): Promise<void> {
  await db.run(db.q.deleteFrom('series_holds').where('company_id', '=', companyKey).where('series_id', '=', seriesId));
}
