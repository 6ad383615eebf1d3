import { afterEach, describe, expect, it, vi } from 'vitest';
import { nowIso } from '../../src-main/core/clock.ts';

describe('nowIso', () => {
  afterEach(() => vi.useRealTimers());

  it('is the time now, to the millisecond, however often it is asked within one', () => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2026-03-01T10:00:00.000Z'));
    expect(nowIso()).toBe('2026-03-01T10:00:00.000Z');
    expect(nowIso()).toBe('2026-03-01T10:00:00.000Z');
    vi.setSystemTime(new Date('2026-03-01T10:00:00.001Z'));
    expect(nowIso()).toBe('2026-03-01T10:00:00.001Z');
    vi.setSystemTime(new Date('2025-12-31T23:59:59.999Z'));
    expect(nowIso()).toBe('2025-12-31T23:59:59.999Z');
  });
});
