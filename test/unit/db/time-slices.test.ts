import { stat } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Db } from '../../../src-main/core/db/engine.ts';
import { applyInSlices } from '../../../src-main/core/db/time-slices.ts';
import { letOthersIn } from '../../../src-main/core/let-others-in.ts';

/** Holds the thread for `ms`, as a slow item (a GOBL check) does. */
const busy = (ms: number) => {
  const until = performance.now() + ms;
  while (performance.now() < until);
};

/** A Db that only counts its transactions: the slicing is all that is tested here. */
function countingDb(): { db: Db; log: string[] } {
  const log: string[] = [];
  const db = {
    async tx<T>(fn: () => Promise<T>): Promise<T> {
      log.push('begin');
      const result = await fn();
      log.push('commit');
      return result;
    },
  } as unknown as Db;
  return { db, log };
}

/** Runs fn from an I/O callback, where a request's handler starts. */
const fromIoCallback = <T>(fn: () => Promise<T>) =>
  new Promise<T>((resolve, reject) => stat(import.meta.filename, () => void fn().then(resolve, reject)));

describe('letOthersIn', () => {
  it('lets a due timer run before it resolves, even when called from an I/O callback', async () => {
    const order = await fromIoCallback(async () => {
      const seen: string[] = [];
      setTimeout(() => seen.push('timer'), 0);
      busy(3);
      await letOthersIn();
      seen.push('resumed');
      return seen;
    });
    expect(order).toEqual(['timer', 'resumed']);
  });
});

describe('applyInSlices', () => {
  it('applies every item in order, in several short transactions, and lets timers run between them', async () => {
    const { db, log } = countingDb();
    const items = Array.from({ length: 20 }, (_, i) => i);
    const closes: Array<{ from: number; count: number; last: boolean }> = [];
    let ticks = 0;
    const ticking = setInterval(() => ticks++, 1);
    const ticksAt: number[] = [];
    const results = await fromIoCallback(() =>
      applyInSlices(
        db,
        items,
        async (i) => {
          busy(3);
          return i * 10;
        },
        {
          origin: 'local',
          sliceMs: 8,
          close: async ({ from, done, last }) => {
            closes.push({ from, count: done.length, last });
            ticksAt.push(ticks);
          },
        },
      ),
    );
    clearInterval(ticking);
    expect(results).toEqual(items.map((i) => i * 10));
    // Slices follow one another without a gap or an overlap, and only the final one is last.
    expect(closes.length).toBeGreaterThan(3);
    expect(closes.every((c) => c.count >= 1 && c.count <= 3)).toBe(true);
    expect(closes.map((c) => c.from)).toEqual(closes.map((_, i) => closes.slice(0, i).reduce((n, c) => n + c.count, 0)));
    expect(closes.map((c) => c.last)).toEqual(closes.map((_, i) => i === closes.length - 1));
    expect(log).toEqual(closes.flatMap(() => ['begin', 'commit']));
    // A timer ran between every two slices: none ran straight after another.
    for (let i = 1; i < ticksAt.length; i++) expect(ticksAt[i]).toBeGreaterThan(ticksAt[i - 1]);
  });

  it('runs one transaction for its close even with no items', async () => {
    const { db, log } = countingDb();
    const closes: boolean[] = [];
    expect(await applyInSlices(db, [], async () => 1, { origin: 'local', close: async ({ last }) => void closes.push(last) })).toEqual([]);
    expect(closes).toEqual([true]);
    expect(log).toEqual(['begin', 'commit']);
  });
});
