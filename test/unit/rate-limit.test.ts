import { describe, expect, it } from 'vitest';
import { RateLimiter } from '../../src-main/http/rate-limit.ts';

describe('rate limiter', () => {
  it('allows a burst, then refuses with the seconds to wait, then refills', () => {
    let now = 0;
    const limiter = new RateLimiter({ perSecond: 2, burst: 3, now: () => now });
    expect([limiter.take('a'), limiter.take('a'), limiter.take('a')]).toEqual([0, 0, 0]);
    expect(limiter.take('a')).toBe(1);
    expect(limiter.take('b')).toBe(0); // keys are independent
    now += 500; // one call refilled
    expect(limiter.take('a')).toBe(0);
    expect(limiter.take('a')).toBeGreaterThan(0);
    now += 10_000;
    expect([limiter.take('a'), limiter.take('a'), limiter.take('a'), limiter.take('a')]).toEqual([0, 0, 0, 1]);
  });
});
