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

export function getSeriesEntry(ctx: Ctx, seriesId: string, id: string): SeriesEntryView {
  const { store } = ctx.service;
  requireSeriesRow(ctx, seriesId);
  const row = store.first(
    store.q
      .selectFrom('series_entries')
      .selectAll()
      .where('company_id', '=', ctx.caller.companyId)
      .where('id', '=', id)
      .where('series_id', '=', seriesId),
  );
  if (!row) throw notFound(`entry ${id} of series ${seriesId}`);
  return seriesEntryView(row);
}

/** A keyset page by index: the cursor holds the last index served, so pages never skip or repeat. */
export function listSeriesEntries(
  ctx: Ctx,
  seriesId: string,
  q: { cursor?: string; limit: number; ascending: boolean },
): SeriesEntryPage {
  const { store, cursorSecret } = ctx.service;
  requireSeriesRow(ctx, seriesId);
  const scope = JSON.stringify(['series-entries', ctx.caller.companyId, seriesId, q.ascending]);
  const base = store.q.selectFrom('series_entries').selectAll().where('company_id', '=', ctx.caller.companyId).where('series_id', '=', seriesId);
  const { rows, nextCursor } = keysetPage<SeriesEntryRow>({
    secret: cursorSecret,
    scope,
    cursor: q.cursor,
    limit: q.limit,
    shape: ['int'],
    key: (row) => [row.idx],
    fetch(after, take) {
      const query = after ? base.where('idx', q.ascending ? '>' : '<', after[0] as number) : base;
      return store.all(query.orderBy('idx', q.ascending ? 'asc' : 'desc').limit(take));
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
