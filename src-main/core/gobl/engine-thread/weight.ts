/**
 * How much work a document is for the GOBL engine, counted until `limit`: one for every value
 * (an invoice line is about 23) and one for every 512 characters of text. The engine's cost
 * follows it, about 7 µs a unit on the 2-core machine (a 1,000-line invoice, 23,000 units,
 * builds in 155 ms), so a document over ENGINE_THREAD_FROM is one to build off the event loop.
 * The walk stops at `limit`, so weighing even a huge document costs a few microseconds.
 */
export function outweighs(value: unknown, limit: number): boolean {
  let weight = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const next = stack.pop();
    weight++;
    if (typeof next === 'string') weight += next.length >> 9;
    else if (Array.isArray(next)) {
      // Every value waiting on the stack weighs one at least: a wide array outweighs before it is read through.
      for (let i = 0; i < next.length; i++) {
        if (weight + stack.length >= limit) return true;
        stack.push(next[i]);
      }
    } else if (typeof next === 'object' && next !== null) {
      for (const key in next) {
        if (weight + stack.length >= limit) return true;
        stack.push((next as Record<string, unknown>)[key]);
      }
    }
    if (weight + stack.length > limit) return true;
  }
  return false;
}

/**
 * The weight from which a document is built and checked on the engine's own thread: about
 * 10 ms of the engine's work (some 65 invoice lines). Below it, the round trip (the document
 * written out as JSON, read back on the thread, the answer likewise) costs more than it saves.
 * SILODESK_ENGINE_THREAD_FROM sets another (0: every document; tests run the suites so).
 */
export const ENGINE_THREAD_FROM = weightFromEnv(process.env.SILODESK_ENGINE_THREAD_FROM) ?? 1_500;

function weightFromEnv(text: string | undefined): number | undefined {
  if (text === undefined || text.trim() === '') return undefined;
  const weight = Number(text);
  return Number.isInteger(weight) && weight >= 0 ? weight : undefined;
}
