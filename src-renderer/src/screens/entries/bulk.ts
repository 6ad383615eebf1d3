import { useCallback, useRef, useState } from 'react';
import { ApiClientError } from '../../api/errors.ts';

const RATE_LIMIT_RETRIES = 8;

/** Runs one call; when the service says "too many requests", waits and tries again. */
async function withRetry<T>(call: () => Promise<T>, signal: AbortSignal): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await call();
    } catch (error) {
      if (!(error instanceof ApiClientError && error.key === 'rate-limited') || attempt >= RATE_LIMIT_RETRIES || signal.aborted) throw error;
      await new Promise((resolve) => setTimeout(resolve, 250 * 2 ** Math.min(attempt, 4)));
    }
  }
}

export interface BulkOutcome<T> {
  done: number;
  failures: Array<{ item: T; error: unknown }>;
  cancelled: boolean;
}

/**
 * Runs `work` over every item, a few at a time: fast enough for thousands of entries
 * without flooding the service, and each failure is kept (the rest go on).
 */
export async function runBulk<T>(
  items: readonly T[],
  work: (item: T) => Promise<unknown>,
  options: { concurrency?: number; signal: AbortSignal; onProgress(done: number): void },
): Promise<BulkOutcome<T>> {
  const failures: BulkOutcome<T>['failures'] = [];
  let next = 0;
  let done = 0;
  const worker = async () => {
    while (next < items.length && !options.signal.aborted) {
      const item = items[next++];
      try {
        await withRetry(() => work(item), options.signal);
      } catch (error) {
        failures.push({ item, error });
      }
      done += 1;
      options.onProgress(done);
    }
  };
  await Promise.all(Array.from({ length: Math.min(options.concurrency ?? 6, items.length) }, worker));
  return { done, failures, cancelled: options.signal.aborted };
}

export interface BulkRun {
  running: boolean;
  /** e.g. "Finding entries…" or "Moving…" */
  phase?: string;
  done: number;
  total: number;
  start<T>(phase: string, items: readonly T[], work: (item: T) => Promise<unknown>): Promise<BulkOutcome<T>>;
  setPhase(phase: string, total?: number, done?: number): void;
  signal(): AbortSignal;
  cancel(): void;
}

/** Progress state for a bulk action shown in a dialog, with a Cancel that stops it between items. */
export function useBulkRun(): BulkRun {
  const [running, setRunning] = useState(false);
  const [phase, setPhaseState] = useState<string>();
  const [done, setDone] = useState(0);
  const [total, setTotal] = useState(0);
  const controller = useRef<AbortController>(new AbortController());

  const signal = useCallback(() => {
    if (controller.current.signal.aborted) controller.current = new AbortController();
    return controller.current.signal;
  }, []);

  const setPhase = useCallback((next: string, nextTotal = 0, nextDone = 0) => {
    setRunning(true);
    setPhaseState(next);
    setTotal(nextTotal);
    setDone(nextDone);
  }, []);

  const start = useCallback(
    async <T,>(label: string, items: readonly T[], work: (item: T) => Promise<unknown>) => {
      setPhase(label, items.length, 0);
      try {
        return await runBulk(items, work, { signal: signal(), onProgress: setDone });
      } finally {
        setRunning(false);
      }
    },
    [setPhase, signal],
  );

  const cancel = useCallback(() => controller.current.abort(), []);
  return { running, phase, done, total, start, setPhase, signal, cancel };
}
