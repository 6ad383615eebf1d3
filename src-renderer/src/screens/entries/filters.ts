import type { ApiClient } from '../../api/client.ts';
import type { Entry } from '../../api/types.ts';
import { cursorPages, offsetPages, type PagedRead } from '../../data/queries.ts';
import type { EntrySort } from './columns.ts';

/** What the entry list is narrowed to. `q` is the (debounced) full-text search. */
export interface EntryFilters {
  folder?: string;
  state?: string;
  tag?: string;
  /** the document's issue date range, YYYY-MM-DD, inclusive */
  dateFrom?: string;
  dateTo?: string;
  /** the column the list is ordered by (search results come by relevance) */
  sort: EntrySort;
  ascending: boolean;
  q: string;
}

export const NO_FILTERS: EntryFilters = { sort: 'created_at', ascending: false, q: '' };

export const hasNarrowing = (f: EntryFilters): boolean => !!(f.state || f.tag || f.dateFrom || f.dateTo || f.q);

export const LIST_PAGE = 100;
export const SEARCH_PAGE = 50;

/** The filters as the API's query: the same for the list, its search and its sums. */
export const filterQuery = (f: EntryFilters) => ({ folder: f.folder, state: f.state, tag: f.tag, date_from: f.dateFrom, date_to: f.dateTo });

type EntryPage = { list: Entry[] };
/** Where a page starts: a keyset cursor when listing, an offset when searching. */
export type PagePosition = string | number | undefined;

/**
 * The pages of entries for the filters: keyset pages of the list in the chosen order,
 * or, when searching, pages of hits by relevance (an exact document number first).
 */
export function entryPages(f: EntryFilters): PagedRead<EntryPage, PagePosition> {
  const read = f.q
    ? offsetPages('searchEntries', { query: { q: f.q, ...filterQuery(f), limit: SEARCH_PAGE } })
    : cursorPages('listEntries', { query: { ...filterQuery(f), sort: f.sort, ascending: f.ascending, limit: LIST_PAGE } });
  // Both answer `list`; each read takes back only the positions it made.
  return read as unknown as PagedRead<EntryPage, PagePosition>;
}

/** Every entry matching the filters, page by page (for "select all matching"). */
export async function loadAllEntries(
  api: ApiClient,
  f: EntryFilters,
  onProgress: (loaded: number) => void,
  signal: AbortSignal,
): Promise<Entry[]> {
  const read = entryPages(f);
  const all: Entry[] = [];
  let position = read.first;
  for (;;) {
    signal.throwIfAborted();
    const page = await read.fetch(api, position);
    signal.throwIfAborted();
    all.push(...page.list);
    onProgress(all.length);
    const next = read.next(page, position);
    if (next === undefined) return all;
    position = next;
  }
}
