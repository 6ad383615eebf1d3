/**
 * Runs `work` while counting the turns of the event loop that other code got meanwhile
 * (a loop that waits a setImmediate each time): work that never yields lets it in once or
 * twice, work that lets others in every few milliseconds many times.
 */
export async function turnsDuring<T>(work: () => Promise<T>): Promise<{ result: T; turns: number; ms: number }> {
  let turns = 0;
  let running = true;
  const other = (async () => {
    while (running) {
      turns++;
      await new Promise((r) => setImmediate(r));
    }
  })();
  const t0 = performance.now();
  try {
    const result = await work();
    return { result, turns, ms: performance.now() - t0 };
  } finally {
    running = false;
    await other;
  }
}
