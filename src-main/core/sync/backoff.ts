export interface RetryPolicy {
  /** first wait; doubles on each try */
  baseMs: number;
  /** the longest wait between two tries (a Retry-After may ask for longer, up to maxRetryAfterMs) */
  maxMs: number;
  /** tries of one request before the remote counts as unreachable */
  maxAttempts: number;
  maxRetryAfterMs: number;
  /** one request may take this long before it is abandoned and retried */
  timeoutMs: number;
  /**
   * Tries of one request that may time out (default 2). A remote that accepts and
   * then never answers costs at most this many timeouts, not maxAttempts of them:
   * the sync ends with a clear error in minutes, not a quarter of an hour.
   */
  maxTimeouts?: number;
}

export const DEFAULT_RETRY: RetryPolicy = {
  baseMs: 500,
  maxMs: 30_000,
  maxAttempts: 8,
  maxRetryAfterMs: 5 * 60_000,
  // The largest request (an 8 MiB upload, a 16 MiB read) takes seconds on any working link.
  timeoutMs: 60_000,
  maxTimeouts: 2,
};

/** The longest a request can take, all tries and waits included, against a remote that accepts and hangs. */
export function worstCaseHangMs(policy: RetryPolicy): number {
  const timeouts = Math.min(policy.maxAttempts, policy.maxTimeouts ?? 2);
  let total = timeouts * policy.timeoutMs;
  for (let attempt = 1; attempt < timeouts; attempt++) total += Math.min(policy.maxMs, policy.baseMs * 2 ** (attempt - 1));
  return total;
}

/**
 * Exponential backoff with jitter: half of the doubled delay is fixed and half
 * random, so many clients that failed together do not come back together, and
 * none retries sooner than half the plan. `attempt` counts from 1.
 */
export function backoffMs(policy: RetryPolicy, attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(policy.maxMs, policy.baseMs * 2 ** Math.min(30, attempt - 1));
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

/** Retry-After as seconds or an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (header === null || header.trim() === '') return undefined;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** The wait before the next try: what the server asked for (within reason), else our own backoff. */
export function nextDelayMs(policy: RetryPolicy, attempt: number, retryAfter: number | undefined, random?: () => number): number {
  if (retryAfter !== undefined) return Math.min(policy.maxRetryAfterMs, retryAfter);
  return backoffMs(policy, attempt, random);
}
