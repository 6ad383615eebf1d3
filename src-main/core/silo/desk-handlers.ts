import type { HandlersOf } from '../api/handler.ts';
import type { siloOperations } from '../api/contract/silo.ts';
import { entryNames } from './entry-names.ts';
import { sumEntries } from './sums.ts';
import { deleteView, listViews, putView } from './views.ts';

type DeskOperations = Pick<typeof siloOperations, 'sumEntries' | 'entryNames' | 'listViews' | 'putView' | 'deleteView'>;

/** The desk's list helpers: sums of a selection, names of entries, saved views. */
export const deskListHandlers: HandlersOf<DeskOperations> = {
  sumEntries: (ctx, { query }) => sumEntries(ctx, query),
  entryNames: (ctx, { query }) => entryNames(ctx, query.ids),
  listViews: (ctx) => listViews(ctx),
  putView: (ctx, { params, body }) => putView(ctx, params.id, body),
  deleteView: (ctx, { params }) => deleteView(ctx, params.id),
};
