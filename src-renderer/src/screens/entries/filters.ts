import type { ApiClient } from '../../api/client.ts';
import type { Entry } from '../../api/types.ts';

/** What the entry list is narrowed to. `q` is the (debounced) full-text search. */
export interface EntryFilters {
  folder?: string;
  state?: string;
  tag?: string;
  /** the document's issue date range, YYYY-MM-DD, inclusive */
  dateFrom?: string;
  dateTo?: string;
  ascending: boolean;
  q: string;
}

export const NO_FILTERS: EntryFilters = { ascending: false, q: '' };

export const hasNarrowing = (f: EntryFilters): boolean => !!(f.state || f.tag || f.dateFrom || f.dateTo || f.q);

/** Where the next page starts: a keyset cursor when listing, an offset when searching. */
export type PagePosition = { cursor: string } | { offset: number };

export interface LoadedPage {
  rows: Entry[];
  next?: PagePosition;
}

export const LIST_PAGE = 100;
export const SEARCH_PAGE = 50;

/**
 * One page of entries for the filters. Search answers by relevance and (for now)
 * filters only by folder, so state, tag and dates are applied to its pages here;
 * see the report's API requests for moving that into the search.
 */
export async function loadEntryPage(api: ApiClient, f: EntryFilters, from?: PagePosition, signal?: AbortSignal): Promise<LoadedPage> {
  if (f.q) {
    const offset = from && 'offset' in from ? from.offset : 0;
    const page = await api.searchEntries({ query: { q: f.q, folder: f.folder, limit: SEARCH_PAGE, offset } });
    signal?.throwIfAborted();
    return {
      rows: page.list.filter((e) => matchesLocally(e, f)),
      next: page.next_offset !== undefined && page.next_offset > offset ? { offset: page.next_offset } : undefined,
    };
  }
  const cursor = from && 'cursor' in from ? from.cursor : undefined;
  const page = await api.listEntries({
    query: {
      folder: f.folder,
      state: f.state,
      tag: f.tag,
      date_from: f.dateFrom,
      date_to: f.dateTo,
      ascending: f.ascending,
      limit: LIST_PAGE,
      cursor,
    },
  });
  signal?.throwIfAborted();
  return { rows: page.list, next: page.next_cursor ? { cursor: page.next_cursor } : undefined };
}

function matchesLocally(e: Entry, f: EntryFilters): boolean {
  if (f.state && e.state !== f.state) return false;
  if (f.tag && !e.tags.includes(f.tag)) return false;
  const day = e.snippet.issue_date;
  if (f.dateFrom && (!day || day < f.dateFrom)) return false;
  if (f.dateTo && (!day || day > f.dateTo)) return false;
  return true;
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
