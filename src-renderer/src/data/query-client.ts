import { QueryClient } from '@tanstack/react-query';
import type { OperationName } from '../../../src-main/core/api/contract/index.ts';
import { affects } from './invalidation.ts';
import { operationOfKey } from './keys.ts';

/**
 * The cache of one window for one company (a new company or token is a new App and a
 * new cache). Reads are not retried (a refusal or a 404 would only come again, and
 * errors show at once with a "Try again"), not refetched on focus, and not paused
 * when the machine is offline: the service is local (IPC or localhost), so
 * `navigator.onLine` says nothing about whether it answers.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: false, refetchOnWindowFocus: false, refetchOnReconnect: false, networkMode: 'always' },
      mutations: { retry: false, networkMode: 'always' },
    },
  });
}

/** Makes stale, and fetches again where shown, every read that a successful write of one of these operations affects. */
export function invalidateAfter(queryClient: QueryClient, writes: readonly OperationName[]): Promise<void> {
  if (writes.length === 0) return Promise.resolve();
  return queryClient.invalidateQueries({
    predicate: (query) => {
      const read = operationOfKey(query.queryKey);
      return read !== undefined && writes.some((write) => affects(write, read));
    },
  });
}

/** How long writes must pause before what they made stale is fetched again. */
export const WRITE_QUIET_MS = 40;

/**
 * Collects writes and invalidates once they pause: a bulk move of a thousand entries
 * or an import of a folder fetches the list again once, at the end, not once per PATCH.
 */
export function writeBatcher(queryClient: QueryClient, quietMs = WRITE_QUIET_MS): (write: OperationName) => void {
  const pending = new Set<OperationName>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const flush = () => {
    timer = undefined;
    const writes = [...pending];
    pending.clear();
    void invalidateAfter(queryClient, writes);
  };
  return (write) => {
    pending.add(write);
    clearTimeout(timer);
    timer = setTimeout(flush, quietMs);
  };
}
