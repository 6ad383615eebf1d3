import type { Operations } from '../../../../src-main/core/api/contract/index.ts';
import type { ClientInput, ClientOutput } from '../../api/client.ts';
import { DEFAULT_COLUMNS, type ColumnId, type SortState } from './columns.ts';
import { NO_FILTERS, type EntryFilters } from './filters.ts';

export type SavedView = ClientOutput<Operations['putView']>;
export type ViewBody = ClientInput<Operations['putView']>['body'];

/** What the list shows now, as a view to save. */
export function viewBodyOf(name: string, filters: EntryFilters, columns: readonly ColumnId[], sort: SortState): ViewBody {
  const f: ViewBody['filters'] = {};
  if (filters.folder !== undefined) f.folder = filters.folder;
  if (filters.state) f.state = filters.state;
  if (filters.tag) f.tag = filters.tag;
  if (filters.dateFrom) f.date_from = filters.dateFrom;
  if (filters.dateTo) f.date_to = filters.dateTo;
  if (filters.q) f.q = filters.q;
  return { name, filters: f, columns: [...columns], sort: { by: sort.by, ascending: sort.ascending } };
}

/** A saved view as the list's state. */
export function stateOfView(view: SavedView): { filters: EntryFilters; columns: ColumnId[]; sort: SortState } {
  const f = view.filters;
  return {
    filters: { ...NO_FILTERS, folder: f.folder, state: f.state, tag: f.tag, dateFrom: f.date_from, dateTo: f.date_to, q: f.q ?? '', sort: view.sort.by, ascending: view.sort.ascending },
    columns: view.columns.length ? [...view.columns] : [...DEFAULT_COLUMNS],
    sort: view.sort,
  };
}

/** Whether the list shows exactly what a view saved (then the list is titled by it). */
export function showsView(view: SavedView, filters: EntryFilters, columns: readonly ColumnId[], sort: SortState): boolean {
  const now = viewBodyOf(view.name, filters, columns, sort);
  const canon = (body: ViewBody) => JSON.stringify({ f: Object.entries(body.filters ?? {}).sort(), c: body.columns, s: body.sort });
  return canon(now) === canon({ name: view.name, filters: view.filters, columns: view.columns, sort: view.sort });
}
