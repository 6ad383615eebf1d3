import { keysetPage } from '../api/keyset-page.ts';
import { notFound } from '../api/errors.ts';
import type { Ctx } from '../api/handler.ts';
import { seriesEntryView, type SeriesEntryRow, type SeriesEntryView } from './rows.ts';
import { requireSeriesRow } from './series.ts';

export interface SeriesEntryPage {
  series_id: string;
  list: SeriesEntryView[];
  limit: number;
  cursor?: string;
  next_cursor?: string;
}

export async function getSeriesEntry(ctx: Ctx, seriesId: string, id: string): Promise<SeriesEntryView> {
  const { db } = ctx.service;
  await requireSeriesRow(ctx, seriesId);
  const row = await db.first(
    db.q
      .selectFrom('series_entries')
      .selectAll()
      .where('company_id', '=', ctx.caller.companyKey)
      .where('id', '=', id)
      .where('series_id', '=', seriesId),
  );
  if (!row) throw notFound(`entry ${id} of series ${seriesId}`);
  return seriesEntryView(row);
}

/** A keyset page by index: the cursor holds the last index served, so pages never skip or repeat. */
export async function listSeriesEntries(
  ctx: Ctx,
  seriesId: string,
  q: { cursor?: string; limit: number; ascending: boolean },
): Promise<SeriesEntryPage> {
  const { db, cursorSecret } = ctx.service;
  await requireSeriesRow(ctx, seriesId);
  const scope = JSON.stringify(['series-entries', ctx.caller.companyKey, seriesId, q.ascending]);
  const base = db.q.selectFrom('series_entries').selectAll().where('company_id', '=', ctx.caller.companyKey).where('series_id', '=', seriesId);
  const { rows, nextCursor } = await keysetPage<SeriesEntryRow>({
    secret: cursorSecret,
    scope,
    cursor: q.cursor,
    limit: q.limit,
    shape: ['int'],
    key: (row) => [row.idx],
    fetch(after, take) {
      const query = after ? base.where('idx', q.ascending ? '>' : '<', after[0] as number) : base;
      return db.all(query.orderBy('idx', q.ascending ? 'asc' : 'desc').limit(take));
    },
  });
  return {
    series_id: seriesId,
    list: rows.map(seriesEntryView),
    limit: q.limit,
    ...(q.cursor ? { cursor: q.cursor } : {}),
    ...(nextCursor ? { next_cursor: nextCursor } : {}),
  };
}
