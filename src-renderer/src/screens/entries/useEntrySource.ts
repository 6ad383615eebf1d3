import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiClientError } from '../../api/errors.ts';
import type { Entry } from '../../api/types.ts';
import { useApiEnv } from '../../app/ApiContext.tsx';
import { useChangeVersion } from '../../app/changes.ts';
import { loadEntryPage, type EntryFilters, type PagePosition } from './filters.ts';

export interface EntrySource {
  rows: Entry[];
  hasMore: boolean;
  loading: boolean;
  /** the first page for the current filters has arrived */
  ready: boolean;
  error?: unknown;
  loadMore(): void;
  retry(): void;
  /** show a changed entry (after a PATCH) without reloading the list */
  replace(entry: Entry): void;
}

interface State {
  rows: Entry[];
  next?: PagePosition;
  loading: boolean;
  ready: boolean;
  error?: unknown;
}

/**
 * The entries for the filters, page by page as the list scrolls. Each change of
 * filters starts a new generation; pages of an older generation are dropped when
 * they arrive, so a slow answer for "inv" never replaces the one for "invoice".
 * While a new first page loads, the old rows stay on screen.
 */
export function useEntrySource(filters: EntryFilters): EntrySource {
  const { api, onUnauthorized } = useApiEnv();
  const changed = useChangeVersion('entries');
  const [state, setState] = useState<State>({ rows: [], loading: true, ready: false });
  const generation = useRef(0);
  const inFlight = useRef(false);
  const filtersRef = useRef(filters);
  filtersRef.current = filters;
  const stateRef = useRef(state);
  stateRef.current = state;
  const key = JSON.stringify(filters);

  const fail = useCallback(
    (error: unknown) => {
      if (error instanceof ApiClientError && error.key === 'unauthorized') onUnauthorized?.();
      setState((s) => ({ ...s, loading: false, ready: true, error }));
    },
    [onUnauthorized],
  );

  const load = useCallback(
    (from: PagePosition | undefined) => {
      const mine = from ? generation.current : ++generation.current;
      inFlight.current = true;
      setState((s) => ({ ...s, loading: true, error: undefined, ...(from ? {} : { ready: false }) }));
      loadEntryPage(api, filtersRef.current, from).then(
        (page) => {
          if (mine !== generation.current) return;
          inFlight.current = false;
          setState((s) => {
            const rows = from ? appendUnique(s.rows, page.rows.map(slim)) : page.rows.map(slim);
            return { rows, next: page.next, loading: false, ready: true };
          });
        },
        (error: unknown) => {
          if (mine !== generation.current) return;
          inFlight.current = false;
          fail(error);
        },
      );
    },
    [api, fail],
  );

  useEffect(() => {
    load(undefined);
  }, [key, changed, load]);

  const loadMore = useCallback(() => {
    const s = stateRef.current;
    if (inFlight.current || !s.next || s.error) return;
    load(s.next);
  }, [load]);

  const retry = useCallback(() => {
    const s = stateRef.current;
    load(s.rows.length > 0 ? s.next : undefined);
  }, [load]);

  const replace = useCallback((entry: Entry) => {
    setState((s) => ({ ...s, rows: s.rows.map((r) => (r.id === entry.id ? slim(entry) : r)) }));
  }, []);

  return {
    rows: state.rows,
    hasMore: !!state.next,
    loading: state.loading,
    ready: state.ready,
    error: state.error,
    loadMore,
    retry,
    replace,
  };
}

/**
 * Rows added since the last page can shift an offset page by a few: never show one
 * twice. Only the tail can repeat, so only the tail is checked (a 100k list stays cheap).
 */
function appendUnique(rows: Entry[], more: Entry[]): Entry[] {
  const seen = new Set(rows.slice(-500).map((r) => r.id));
  return rows.concat(more.filter((r) => !seen.has(r.id)));
}

/**
 * What a row needs, and no more: a list scrolled to 100k entries keeps every row
 * in memory, so meta, faults and all but the first file (which names a scan) are dropped.
 */
function slim(entry: Entry): Entry {
  return { ...entry, data: undefined, meta: [], faults: [], attachments: entry.attachments.slice(0, 1) };
}
