import type { Sqlite } from './connection.ts';

/**
 * Who may take SQLite's write lock next: the service's connection (its group
 * transactions) or the checkpoint thread, which now and then needs it to start the WAL
 * over (checkpointer.ts). SQLite's own locks keep the file right either way; the gate
 * only decides where the loser waits. Without it the service's BEGIN would wait in
 * SQLite's busy handler, which sleeps on the event loop; with it, it waits here, as a
 * promise, and the event loop goes on serving.
 *
 * Two Int32s shared with the thread. STATE: FREE, WRITING (the service holds a
 * transaction) or RESTARTING (the thread holds the write lock). WANTED: 1 while the
 * thread waits for the gate; the service's next transaction then lets it go first, or
 * back-to-back transactions would take the gate again before the thread woke.
 */
export const STATE = 0;
export const WANTED = 1;
export const FREE = 0;
export const WRITING = 1;
export const RESTARTING = 2;

/** Past this, the service stops waiting on the gate and leaves it to SQLite's busy handler (a stuck thread must not stop writes). */
const MAX_WAIT_MS = 2_000;
/** Each wait re-checks the clock this often, so MAX_WAIT_MS holds even if a notify were lost. */
const WAIT_STEP_MS = 50;

export class WriteGate {
  readonly cell: Int32Array;

  constructor(cell: Int32Array) {
    this.cell = cell;
  }

  /** Takes the gate for a write transaction: nothing to wait for (undefined) when the thread neither holds nor wants it, else a promise. */
  enter(): Promise<void> | undefined {
    if (Atomics.load(this.cell, WANTED) === 0 && Atomics.compareExchange(this.cell, STATE, FREE, WRITING) !== RESTARTING) return undefined;
    return this.#enterAfterThread();
  }

  async #enterAfterThread(): Promise<void> {
    const giveUpAt = performance.now() + MAX_WAIT_MS;
    for (;;) {
      const left = giveUpAt - performance.now();
      if (left <= 0) {
        Atomics.store(this.cell, STATE, WRITING);
        return;
      }
      const step = Math.min(left, WAIT_STEP_MS);
      if (Atomics.load(this.cell, WANTED) === 1) {
        await waitWhile(this.cell, WANTED, 1, step);
        continue;
      }
      if (Atomics.compareExchange(this.cell, STATE, FREE, WRITING) !== RESTARTING) return;
      await waitWhile(this.cell, STATE, RESTARTING, step);
    }
  }

  /** The transaction ended (committed or rolled back): the thread may take the lock. */
  leave(): void {
    Atomics.store(this.cell, STATE, FREE);
    Atomics.notify(this.cell, STATE);
  }

  /** The thread is gone (it may have died holding the gate): whoever waits goes on. */
  threadGone(): void {
    Atomics.store(this.cell, WANTED, 0);
    Atomics.notify(this.cell, WANTED);
    this.leave();
  }
}

/**
 * Until cell[index] is no longer `value` (a notify) or `ms` passed. Atomics.waitAsync does
 * not keep Node's event loop alive: with nothing else pending the process would end
 * mid-wait, so a timer keeps it open meanwhile. The timer outlasts the wait (it is cleared
 * when the wait ends): one due at the same moment could run first, and leave nothing open.
 */
async function waitWhile(cell: Int32Array, index: number, value: number, ms: number): Promise<void> {
  const wait = Atomics.waitAsync(cell, index, value, ms);
  if (!wait.async) return;
  const keepAlive = setTimeout(() => undefined, ms + 1_000);
  try {
    await wait.value;
  } finally {
    clearTimeout(keepAlive);
  }
}

const gates = new WeakMap<Sqlite, WriteGate>();

/** The gate the checkpoint thread of `sqlite` shares, if one runs. */
export function writeGateOf(sqlite: Sqlite): WriteGate | undefined {
  return gates.get(sqlite);
}

export function setWriteGate(sqlite: Sqlite, gate: WriteGate | undefined): void {
  if (gate) gates.set(sqlite, gate);
  else gates.delete(sqlite);
}
