import type { OperationName } from '../../../src-main/core/api/contract/index.ts';
import type { ApiClient } from '../api/client.ts';
import { ApiClientError } from '../api/errors.ts';
import { isWrite } from './invalidation.ts';

export interface ClientWatch {
  /** the token was refused: the one place that hears it (browser: back to sign-in) */
  onUnauthorized?(): void;
  /** a write succeeded: what it affects is stale */
  onWrite(name: OperationName): void;
}

/**
 * The window's client: the typed client with every answer watched on its way back.
 * Every call of every screen passes here, reads through the query cache and writes
 * alike, so this is the single place that sees a 401 and the single place that
 * turns a successful write into invalidation (see invalidation.ts).
 */
export function watchedClient(api: ApiClient, watch: ClientWatch): ApiClient {
  const names = Object.keys(api) as OperationName[];
  const calls = names.map((name) => {
    const call = api[name] as (...args: unknown[]) => Promise<unknown>;
    const write = isWrite(name);
    const watched = async (...args: unknown[]) => {
      try {
        const answer = await call(...args);
        if (write) watch.onWrite(name);
        return answer;
      } catch (error) {
        if (error instanceof ApiClientError && error.key === 'unauthorized') watch.onUnauthorized?.();
        throw error;
      }
    };
    return [name, watched] as const;
  });
  return Object.fromEntries(calls) as unknown as ApiClient;
}
