import { letOthersIn } from '../let-others-in.ts';
import type { Db } from './engine.ts';

/**
 * How long one transaction of a batch may hold the database (and the event loop) before others
 * get a turn. A slice ends a little past it (its last item, its COMMIT, a collection), and a
 * busy machine keeps a thread waiting besides: at 20 ms a remote taking a push showed blocks
 * of 46–58 ms, at 12 ms 40 ms, with the push no slower.
 */
export const SLICE_MS = 12;

export interface SliceOptions<T> {
  /** whose writes each slice's transaction makes */
  origin: string;
  sliceMs?: number;
  /**
   * Runs in each slice's transaction after its items, for what must commit with them:
   * `from` is the index of the slice's first item, `last` says it is the final slice.
   */
  close?: (slice: { from: number; done: readonly T[]; last: boolean }) => Promise<void>;
}

/**
 * Applies items in order, as many to a transaction as fit in about `sliceMs`, letting
 * other requests in between the transactions, so a long batch never holds the event
 * loop or the database for long. Each item must stand on its own (a savepoint of its
 * own, answering "unchanged" when applied again), because a batch cut off by a crash
 * keeps the slices that committed. The answers are taken once each slice commits: a
 * transaction PostgreSQL runs again answers its items once. There is always one slice,
 * for `close`, even with no items.
 */
export async function applyInSlices<I, T>(db: Db, items: readonly I[], apply: (item: I) => Promise<T>, options: SliceOptions<T>): Promise<T[]> {
  const sliceMs = options.sliceMs ?? SLICE_MS;
  const results: T[] = [];
  // What an item took lately: the next is not started when it would end the slice late.
  let itemMs = 0;
  // What the COMMIT after a slice took lately (every page the slice dirtied is written then): the slice leaves room for it.
  let commitMs = 0;
  for (;;) {
    const started = performance.now();
    const budget = Math.max(sliceMs - commitMs, sliceMs / 4);
    let applied = started;
    const slice = await db.tx(async () => {
      const done: T[] = [];
      let at = started;
      while (results.length + done.length < items.length && (done.length === 0 || at - started + itemMs <= budget)) {
        done.push(await apply(items[results.length + done.length]));
        const now = performance.now();
        itemMs = 0.7 * itemMs + 0.3 * (now - at);
        at = now;
      }
      await options.close?.({ from: results.length, done, last: results.length + done.length === items.length });
      applied = performance.now();
      return done;
    }, { origin: options.origin });
    commitMs = 0.5 * commitMs + 0.5 * (performance.now() - applied);
    results.push(...slice);
    if (results.length === items.length) return results;
    await letOthersIn();
  }
}
