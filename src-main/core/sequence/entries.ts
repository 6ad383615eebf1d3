import { decodeCursor, encodeCursor } from '../api/cursor.ts';
import { notFound } from '../api/errors.ts';
import type { Ctx } from '../api/handler.ts';
import { seriesEntryView, type SeriesEntryView } from './rows.ts';
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
  let query = store.q.selectFrom('series_entries').selectAll().where('company_id', '=', ctx.caller.companyId).where('series_id', '=', seriesId);
  if (q.cursor) {
    const pos = decodeCursor(cursorSecret, scope, q.cursor);
    query = query.where('idx', q.ascending ? '>' : '<', Number(pos.at));
  }
  const rows = store.all(query.orderBy('idx', q.ascending ? 'asc' : 'desc').limit(q.limit + 1));
  const more = rows.length > q.limit;
  if (more) rows.pop();
  const last = rows[rows.length - 1];
  return {
    series_id: seriesId,
    list: rows.map(seriesEntryView),
    limit: q.limit,
    ...(q.cursor ? { cursor: q.cursor } : {}),
    ...(more && last ? { next_cursor: encodeCursor(cursorSecret, scope, { at: String(last.idx), id: last.id }) } : {}),
  };
}
