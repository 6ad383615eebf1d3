import { nowIso } from '../clock.ts';
import type { Store } from '../db/store.ts';

/**
 * Why a series this install issues may not be numbered for now:
 * - `restored`: the data folder was found restored from a backup or copied, so the
 *   remote may hold numbers issued after the copy; released once this side has
 *   caught up with the remote's head of the series;
 * - `fork`: the issuer's chain and another were found at the same index; released
 *   by hand once someone has sorted it out.
 */
export type HoldReason = 'restored' | 'fork';

export function holdSeries(store: Store, companyId: string, seriesId: string, reason: HoldReason): void {
  store.run(
    store.q
      .insertInto('series_holds')
      .values({ series_id: seriesId, company_id: companyId, reason, since: nowIso() })
      // a fork outranks a restore: catching up does not settle it
      .onConflict((oc) => (reason === 'fork' ? oc.columns(['company_id', 'series_id']).doUpdateSet({ reason }) : oc.doNothing())),
  );
}

// Series ids are unique only within a company: a hold is always the company's own.
export function holdOf(store: Store, companyId: string, seriesId: string): { reason: HoldReason; since: string } | undefined {
  const row = store.first(
    store.q.selectFrom('series_holds').select(['reason', 'since']).where('company_id', '=', companyId).where('series_id', '=', seriesId),
  );
  return row ? { reason: row.reason as HoldReason, since: row.since } : undefined;
}

export function heldSeries(store: Store, companyId: string, reason?: HoldReason): string[] {
  let q = store.q.selectFrom('series_holds').select('series_id').where('company_id', '=', companyId);
  if (reason) q = q.where('reason', '=', reason);
  return store.all(q.orderBy('series_id')).map((r) => r.series_id);
}

export function releaseHold(store: Store, companyId: string, seriesId: string): void {
  store.run(store.q.deleteFrom('series_holds').where('company_id', '=', companyId).where('series_id', '=', seriesId));
}
