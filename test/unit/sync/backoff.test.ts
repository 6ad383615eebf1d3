import { describe, expect, it } from 'vitest';
import { backoffMs, nextDelayMs, retryAfterMs, type RetryPolicy } from '../../../src-main/core/sync/backoff.ts';

const policy: RetryPolicy = { baseMs: 100, maxMs: 1000, maxAttempts: 5, maxRetryAfterMs: 60_000, timeoutMs: 1000 };

describe('sync backoff', () => {
  it('doubles from the base up to the cap, with half of each wait random', () => {
    expect([1, 2, 3, 4, 5, 6].map((n) => backoffMs(policy, n, () => 0))).toEqual([50, 100, 200, 400, 500, 500]);
    expect([1, 2, 3, 4, 5, 6].map((n) => backoffMs(policy, n, () => 1))).toEqual([100, 200, 400, 800, 1000, 1000]);
    const spread = new Set(Array.from({ length: 50 }, () => backoffMs(policy, 3)));
    expect(spread.size).toBeGreaterThan(10);
    for (const d of spread) expect(d).toBeGreaterThanOrEqual(200);
  });

  it('reads Retry-After as seconds or an HTTP date, and prefers it to its own plan (within reason)', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(retryAfterMs('3', now)).toBe(3000);
    expect(retryAfterMs('Thu, 01 Jan 2026 00:00:10 GMT', now)).toBe(10_000);
    expect(retryAfterMs('Wed, 31 Dec 2025 00:00:00 GMT', now)).toBe(0);
    expect(retryAfterMs(null, now)).toBeUndefined();
    expect(retryAfterMs('soon', now)).toBeUndefined();
    expect(nextDelayMs(policy, 1, 3000)).toBe(3000);
    expect(nextDelayMs(policy, 1, 10 * 60_000)).toBe(60_000);
    expect(nextDelayMs(policy, 2, undefined, () => 0)).toBe(100);
  });
});
