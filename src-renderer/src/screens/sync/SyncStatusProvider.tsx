import { useQueryClient } from '@tanstack/react-query';
import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';
import type { AnswerOf } from '../../api/client.ts';
import { ApiClientError } from '../../api/errors.ts';
import { invalidateAfter } from '../../data/query-client.ts';
import { useApiQuery, useShowAnswer } from '../../data/queries.ts';

export type SyncStatus = AnswerOf<'getSyncStatus'>;
export type SyncSettings = AnswerOf<'getSyncSettings'>;
export type SyncConflict = AnswerOf<'listSyncConflicts'>['list'][number];
export type ParkedChange = AnswerOf<'listParkedChanges'>['list'][number];
export type ConnectionTest = AnswerOf<'testSyncConnection'>;

/** How often the status is asked for: quickly while a sync runs, calmly otherwise. */
export const POLL_RUNNING_MS = 700;
export const POLL_IDLE_MS = 5000;
/** A caller that may not see sync (an app token) is asked again only rarely. */
const POLL_FORBIDDEN_MS = 60_000;

const isForbidden = (error: unknown): boolean => error instanceof ApiClientError && error.key === 'forbidden';

interface SyncStatusValue {
  status?: SyncStatus;
  error?: unknown;
  /** false when this caller may not use sync at all */
  allowed: boolean;
  /** show a status a write already answered (the poll's pace follows it at once) */
  setStatus(status: SyncStatus): void;
}

const SyncStatusContext = createContext<SyncStatusValue | null>(null);

/**
 * One poll of the sync status for the whole window (one cached read), shared by the
 * header badge and the Sync screen. A status that moved on its own (a run ended, the
 * conflicts, forks or parked changes grew or shrank) means sync wrote: what a sync run
 * writes is then stale (invalidation.ts), so lists of entries and of conflicts refresh.
 */
export function SyncStatusProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const query = useApiQuery('getSyncStatus', undefined, {
    refetchInterval: (q) => (isForbidden(q.state.error) ? POLL_FORBIDDEN_MS : q.state.data?.running ? POLL_RUNNING_MS : POLL_IDLE_MS),
    refetchIntervalInBackground: true,
  });
  const setStatus = useShowAnswer('getSyncStatus');
  const status = query.data;

  const [seen, setSeen] = useState<SyncStatus>();
  useEffect(() => {
    if (!status || status === seen) return;
    if (seen && syncWrote(seen, status)) void invalidateAfter(queryClient, ['startSync']);
    setSeen(status);
  }, [status, seen, queryClient]);

  const value: SyncStatusValue = { status, error: query.error ?? undefined, allowed: !isForbidden(query.error), setStatus };
  return <SyncStatusContext.Provider value={value}>{children}</SyncStatusContext.Provider>;
}

const syncWrote = (before: SyncStatus, after: SyncStatus): boolean =>
  (before.running && !after.running) || before.conflicts !== after.conflicts || before.forks !== after.forks || before.parked !== after.parked;

export function useSyncStatus(): SyncStatusValue {
  const value = useContext(SyncStatusContext);
  if (!value) throw new Error('useSyncStatus outside SyncStatusProvider');
  return value;
}
