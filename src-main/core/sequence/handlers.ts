import type { HandlersOf } from '../api/handler.ts';
import type { sequenceOperations } from '../api/contract/sequence.ts';
import { getSeriesEntry, listSeriesEntries } from './entries.ts';
import { putSeriesEntry } from './issue.ts';
import { getSeries, listSeries, patchSeries, putSeries, releaseSeriesHold } from './series.ts';
import { verifySeries } from './verify.ts';

export const sequenceHandlers: HandlersOf<typeof sequenceOperations> = {
  listSeries: (ctx) => listSeries(ctx),
  getSeries: (ctx, { params }) => getSeries(ctx, params.id),
  putSeries: (ctx, { params, body }) => putSeries(ctx, params.id, body),
  patchSeries: (ctx, { params, body }) => patchSeries(ctx, params.id, body),
  listSeriesEntries: (ctx, { params, query }) => listSeriesEntries(ctx, params.series_id, query),
  getSeriesEntry: (ctx, { params }) => getSeriesEntry(ctx, params.series_id, params.id),
  putSeriesEntry: (ctx, { params, body }) => putSeriesEntry(ctx, params.series_id, params.id, body),
  verifySeries: (ctx, { params }) => verifySeries(ctx, params.id),
  releaseSeriesHold: (ctx, { params }) => releaseSeriesHold(ctx, params.id),
  getKeys: (ctx) => ctx.service.keys.jwks(),
};
