import { describe, expect, it } from 'vitest';
import { turnsDuring } from '../support/event-loop-turns.ts';
import { TurnBudget } from '../../src-main/core/turn-budget.ts';

/** Holds the thread for `ms`, as costly small pieces of work do. */
function busy(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

describe('TurnBudget', () => {
  it('lets others in once its units are spent', async () => {
    const budget = new TurnBudget(100, 60_000);
    const { turns } = await turnsDuring(async () => {
      for (let i = 0; i < 50; i++) await budget.spend(10);
    });
    // 500 units in turns of 100: five chances for others, each a whole turn of the loop.
    expect(turns).toBeGreaterThanOrEqual(5);
  });

  it('lets others in once its time is up, however few units the pieces counted', async () => {
    const budget = new TurnBudget(1_000_000, 5);
    const { turns } = await turnsDuring(async () => {
      for (let i = 0; i < 40; i++) {
        busy(1);
        await budget.spend(1);
      }
    });
    // 40 ms of pieces, 1 unit each: by units alone there would be no turn for others at all.
    expect(turns).toBeGreaterThanOrEqual(5);
  });

  it('does not let others in while both its units and its time remain', async () => {
    const budget = new TurnBudget(1_000_000, 60_000);
    const { turns } = await turnsDuring(async () => {
      for (let i = 0; i < 1000; i++) await budget.spend(1);
    });
    // The other loop starts (one turn) and may get one more as the work ends: no more.
    expect(turns).toBeLessThanOrEqual(2);
  });
});
