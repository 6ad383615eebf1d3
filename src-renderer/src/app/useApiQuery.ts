import { useCallback, useEffect, useRef, useState } from 'react';
import type { ApiClient } from '../api/client.ts';
import { ApiClientError } from '../api/errors.ts';
import { useApiEnv } from './ApiContext.tsx';

export interface QueryState<T> {
  data?: T;
  error?: unknown;
  loading: boolean;
  reload(): void;
  /** replace the data shown (after a write answered the new state) */
  setData(data: T): void;
}

/**
 * Loads with the API client whenever `deps` change. The previous data stays shown
 * while reloading (no flicker), and an answer that arrives after the inputs moved on
 * is dropped, so a slow request can never overwrite a newer one.
 */
export function useApiQuery<T>(load: (api: ApiClient) => Promise<T>, deps: readonly unknown[]): QueryState<T> {
  const { api, onUnauthorized } = useApiEnv();
  const [state, setState] = useState<{ data?: T; error?: unknown; loading: boolean }>({ loading: true });
  const [tick, setTick] = useState(0);
  const loadRef = useRef(load);
  loadRef.current = load;

  useEffect(() => {
    let current = true;
    setState((s) => ({ data: s.data, loading: true }));
    loadRef.current(api).then(
      (data) => {
        if (current) setState({ data, loading: false });
      },
      (error: unknown) => {
        if (!current) return;
        if (error instanceof ApiClientError && error.key === 'unauthorized') onUnauthorized?.();
        setState((s) => ({ data: s.data, error, loading: false }));
      },
    );
    return () => {
      current = false;
    };
    // `load` itself is read through a ref: the caller names what it depends on in `deps`.
  }, [api, onUnauthorized, tick, ...deps]);

  const reload = useCallback(() => setTick((t) => t + 1), []);
  const setData = useCallback((data: T) => setState((s) => ({ ...s, data })), []);
  return { ...state, reload, setData };
}
