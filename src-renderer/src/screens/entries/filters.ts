import type { ApiClient } from '../../api/client.ts';
import type { Entry } from '../../api/types.ts';
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

/** Where the next page starts: a keyset cursor when listing, an offset when searching. */
export type PagePosition = { cursor: string } | { offset: number };

export interface LoadedPage {
  rows: Entry[];
  next?: PagePosition;
}

export const LIST_PAGE = 100;
export const SEARCH_PAGE = 50;

/** The filters as the API's query: the same for the list, its search and its sums. */
export const filterQuery = (f: EntryFilters) => ({ folder: f.folder, state: f.state, tag: f.tag, date_from: f.dateFrom, date_to: f.dateTo });

/**
 * One page of entries for the filters: a keyset page of the list in the chosen order,
 * or, when searching, a page of hits by relevance (an exact document number first).
 */
export async function loadEntryPage(api: ApiClient, f: EntryFilters, from?: PagePosition, signal?: AbortSignal): Promise<LoadedPage> {
  if (f.q) {
    const offset = from && 'offset' in from ? from.offset : 0;
    const page = await api.searchEntries({ query: { q: f.q, ...filterQuery(f), limit: SEARCH_PAGE, offset } });
    signal?.throwIfAborted();
    return { rows: page.list, next: page.next_offset !== undefined && page.next_offset > offset ? { offset: page.next_offset } : undefined };
  }
  const cursor = from && 'cursor' in from ? from.cursor : undefined;
  const page = await api.listEntries({ query: { ...filterQuery(f), sort: f.sort, ascending: f.ascending, limit: LIST_PAGE, cursor } });
  signal?.throwIfAborted();
  return { rows: page.list, next: page.next_cursor ? { cursor: page.next_cursor } : undefined };
}

/** Every entry matching the filters, page by page (for "select all matching"). */
export async function loadAllEntries(
  api: ApiClient,
  f: EntryFilters,
  onProgress: (loaded: number) => void,
  signal: AbortSignal,
): Promise<Entry[]> {
  const all: Entry[] = [];
  let from: PagePosition | undefined;
  do {
    signal.throwIfAborted();
    const page = await loadEntryPage(api, f, from, signal);
    all.push(...page.rows);
    onProgress(all.length);
    from = page.next;
  } while (from);
  return all;
}
