import { createContext, useCallback, useContext, useEffect, useRef, useState, type ReactNode } from 'react';
import type { ClientOutput } from '../../api/client.ts';
import { ApiClientError } from '../../api/errors.ts';
import type { Operations } from '../../../../src-main/core/api/contract/index.ts';
import { useApiEnv } from '../../app/ApiContext.tsx';
import { notifyChanged } from '../../app/changes.ts';

export type SyncStatus = ClientOutput<Operations['getSyncStatus']>;
export type SyncSettings = ClientOutput<Operations['getSyncSettings']>;
export type SyncConflict = ClientOutput<Operations['listSyncConflicts']>['list'][number];
export type ParkedChange = ClientOutput<Operations['listParkedChanges']>['list'][number];
export type ConnectionTest = ClientOutput<Operations['testSyncConnection']>;

/** How often the status is asked for: quickly while a sync runs, calmly otherwise. */
export const POLL_RUNNING_MS = 700;
export const POLL_IDLE_MS = 5000;
/** A caller that may not see sync (an app token) is asked again only rarely. */
const POLL_FORBIDDEN_MS = 60_000;

interface SyncStatusValue {
  status?: SyncStatus;
  error?: unknown;
  /** false when this caller may not use sync at all */
  allowed: boolean;
  /** ask now (after a change that moves the status) */
  refresh(): void;
  /** show a status a write already answered */
  setStatus(status: SyncStatus): void;
}

const SyncStatusContext = createContext<SyncStatusValue | null>(null);

/**
 * One poller of the sync status for the whole window, shared by the header badge
 * and the Sync screen. When a run that was under way ends, screens showing
 * entries reload (the pull may have brought or changed some).
 */
export function SyncStatusProvider({ children }: { children: ReactNode }) {
  const { api, onUnauthorized } = useApiEnv();
  const [status, setStatusState] = useState<SyncStatus>();
  const [error, setError] = useState<unknown>();
  const [allowed, setAllowed] = useState(true);
  const [tick, setTick] = useState(0);
  const wasRunning = useRef(false);

  const apply = useCallback((next: SyncStatus) => {
    if (wasRunning.current && !next.running) notifyChanged('entries', 'folders', 'series', 'workflows');
    wasRunning.current = next.running;
    setStatusState(next);
    setError(undefined);
    setAllowed(true);
  }, []);

  useEffect(() => {
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = async () => {
      let delay = POLL_IDLE_MS;
      try {
        const next = await api.getSyncStatus();
        if (!live) return;
        apply(next);
        if (next.running) delay = POLL_RUNNING_MS;
      } catch (err) {
        if (!live) return;
        if (err instanceof ApiClientError && err.key === 'unauthorized') onUnauthorized?.();
        if (err instanceof ApiClientError && err.key === 'forbidden') {
          setAllowed(false);
          delay = POLL_FORBIDDEN_MS;
        }
        setError(err);
      }
      if (live) timer = setTimeout(poll, delay);
    };
    void poll();
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [api, apply, onUnauthorized, tick]);

  const refresh = useCallback(() => setTick((t) => t + 1), []);
  const setStatus = useCallback(
    (next: SyncStatus) => {
      apply(next);
      // restart the poller so its pace follows the new state at once
      setTick((t) => t + 1);
    },
    [apply],
  );

  return <SyncStatusContext.Provider value={{ status, error, allowed, refresh, setStatus }}>{children}</SyncStatusContext.Provider>;
}

export function useSyncStatus(): SyncStatusValue {
  const value = useContext(SyncStatusContext);
  if (!value) throw new Error('useSyncStatus outside SyncStatusProvider');
  return value;
}
