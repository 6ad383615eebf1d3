import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { FREE, RESTARTING, STATE, WANTED, WRITING, WriteGate } from '../../../src-main/core/db/write-gate.ts';

/** The gate between the service's write transactions and the checkpoint thread (write-gate.ts). */
const gateOf = () => new WriteGate(new Int32Array(new SharedArrayBuffer(8)));
const later = (ms: number, fn: () => void) => setTimeout(fn, ms);

describe('the write gate', () => {
  it('is taken at once when the thread neither holds nor wants it, and let go after', () => {
    const gate = gateOf();
    expect(gate.enter()).toBeUndefined();
    expect(Atomics.load(gate.cell, STATE)).toBe(WRITING);
    gate.leave();
    expect(Atomics.load(gate.cell, STATE)).toBe(FREE);
  });

  it('lets the thread go first when it waits for a gap, then takes the gate once the thread let go', async () => {
    const gate = gateOf();
    Atomics.store(gate.cell, WANTED, 1);
    const order: string[] = [];
    later(30, () => {
      // the thread: takes the gate, stops wanting it, works, lets go
      Atomics.store(gate.cell, STATE, RESTARTING);
      Atomics.store(gate.cell, WANTED, 0);
      Atomics.notify(gate.cell, WANTED);
      order.push('thread');
      later(30, () => {
        order.push('thread done');
        Atomics.store(gate.cell, STATE, FREE);
        Atomics.notify(gate.cell, STATE);
      });
    });
    const waiting = gate.enter();
    expect(waiting).toBeInstanceOf(Promise);
    await waiting;
    order.push('service');
    expect(order).toEqual(['thread', 'thread done', 'service']);
    expect(Atomics.load(gate.cell, STATE)).toBe(WRITING);
  });

  it('goes on when the thread is gone while holding it', async () => {
    const gate = gateOf();
    Atomics.store(gate.cell, STATE, RESTARTING);
    later(20, () => gate.threadGone());
    await gate.enter();
    expect(Atomics.load(gate.cell, STATE)).toBe(WRITING);
  });

  it('keeps a process with nothing else to do alive while it waits (Atomics.waitAsync alone does not)', () => {
    // The thread holds the gate and lets go after 300 ms from an unref'd worker: nothing else keeps the process up.
    const gateModule = fileURLToPath(new URL('../../../src-main/core/db/write-gate.ts', import.meta.url));
    const script = `
      import { Worker } from 'node:worker_threads';
      const { WriteGate, RESTARTING, STATE } = await import(${JSON.stringify(gateModule)});
      const gate = new WriteGate(new Int32Array(new SharedArrayBuffer(8)));
      Atomics.store(gate.cell, STATE, RESTARTING);
      const thread = new Worker('import { workerData } from "node:worker_threads"; const c = new Int32Array(workerData); Atomics.wait(c, 0, 2, 300); Atomics.store(c, 0, 0); Atomics.notify(c, 0);', { eval: true, workerData: gate.cell.buffer });
      thread.unref();
      await gate.enter();
      console.log('entered');
    `;
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(out.trim()).toBe('entered');
  });
});
