import { useCallback, useMemo } from 'react';
import type { Entry } from '../../api/types.ts';
import { mapPages, rowsOf, usePages } from '../../data/queries.ts';
import { entryPages, type EntryFilters } from './filters.ts';

export interface EntrySource {
  rows: Entry[];
  hasMore: boolean;
  loading: boolean;
  /** the first page for the current filters has arrived */
  ready: boolean;
  error?: unknown;
  loadMore(): void;
  retry(): void;
}

/**
 * The entries for the filters, page by page as the list scrolls, through the query
 * cache: each set of filters is its own key, so a slow answer for "inv" never shows
 * for "invoice"; while the first page of new filters loads, the old rows stay on
 * screen; a write that affects entries fetches the loaded pages again in place.
 */
export function useEntrySource(filters: EntryFilters): EntrySource {
  const pages = usePages(mapPages(entryPages(filters), 'rows', slimPage), { keepShown: true });
  const { data, error, hasNextPage, isFetching, isFetchingNextPage, isFetchNextPageError, isPending, isPlaceholderData, fetchNextPage, refetch } = pages;
  const rows = useMemo(() => uniqueRows(rowsOf(data)), [data]);

  // Depends on isFetching, so a list scrolled to its end asks again once a fetch under way is done.
  const loadMore = useCallback(() => {
    if (hasNextPage && !isFetching && !error) void fetchNextPage({ cancelRefetch: false });
  }, [hasNextPage, isFetching, error, fetchNextPage]);

  const retry = useCallback(() => {
    void (isFetchNextPageError ? fetchNextPage() : refetch());
  }, [isFetchNextPageError, fetchNextPage, refetch]);

  return {
    rows,
    hasMore: !!hasNextPage,
    loading: isFetchingNextPage || isPending || isPlaceholderData,
    ready: !isPending && !isPlaceholderData,
    error: error ?? undefined,
    loadMore,
    retry,
  };
}

/** Offset pages of a search can shift by a few when entries arrive meanwhile: never show one twice. */
function uniqueRows(rows: Entry[]): Entry[] {
  const seen = new Set<string>();
  const out: Entry[] = [];
  for (const row of rows) {
    if (seen.has(row.id)) continue;
    seen.add(row.id);
    out.push(row);
  }
  return out;
}

/**
 * What a row needs, and no more: a list scrolled to 100k entries keeps every row
 * in memory, so meta, faults and all but the first file (which names a scan) are dropped
 * before the page is kept.
 */
function slimPage<P extends { list: Entry[] }>(page: P): P {
  return { ...page, list: page.list.map(slim) };
}

function slim(entry: Entry): Entry {
  return { ...entry, data: undefined, meta: [], faults: [], attachments: entry.attachments.slice(0, 1) };
}
