import type { Ctx } from '../api/handler.ts';
import type { SeriesEntryRow, SeriesRow } from './rows.ts';

/** The fields of a series its issuer signs and a copy takes as they are. */
export type SeriesCopyFields = Pick<SeriesRow, 'name' | 'description' | 'code' | 'prefix' | 'padding' | 'suffix' | 'start' | 'sigs' | 'updated_at'>;

/*
 * The write paths of a series' copy: an instance that is not the series' issuer holds
 * it as the issuer signed it (sync checks that first: sync/records/series*.ts). The
 * copy's head moves only as the issuer's entries arrive, never by a local issue. Both
 * run in the caller's transaction (sync's, whose origin is the instance it came from).
 */

/** Takes the series as its issuer signed it: made here if new, its fields replaced if not. */
export async function saveSeriesCopy(ctx: Ctx, id: string, issuer: string, createdAt: string, fields: SeriesCopyFields): Promise<void> {
  const { db } = ctx.service;
  const companyKey = ctx.caller.companyKey;
  const { changes } = await db.run(db.q.updateTable('series').set(fields).where('company_id', '=', companyKey).where('id', '=', id));
  if (changes > 0) return;
  await db.run(
    db.q.insertInto('series').values({
      id, company_id: companyKey, issuer, last_index: 0, last_entry_id: null, request_hash: '', created_at: createdAt, ...fields,
    }),
  );
}

/** Appends an entry the issuer made to the copy's chain, which it extends: the series' head moves to it. */
export async function appendCopyEntry(ctx: Ctx, series: SeriesRow, entry: SeriesEntryRow): Promise<void> {
  const { db } = ctx.service;
  await db.run(db.q.insertInto('series_entries').values(entry));
  await db.run(
    db.q
      .updateTable('series')
      .set({ last_index: entry.idx, last_entry_id: entry.id })
      .where('company_id', '=', series.company_id)
      .where('id', '=', series.id),
  );
}
