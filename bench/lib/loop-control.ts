// A control for event-loop blocks: an idle worker thread watching its own event loop.
// On a shared machine a thread can be kept off the CPU for tens of milliseconds by
// other processes; a block the server thread shows and this idle thread shows too is
// the machine's, not the service's. Reported beside every "longest block".
import { Worker } from 'node:worker_threads';

const CONTROL = `
const { parentPort } = require('node:worker_threads');
const { monitorEventLoopDelay } = require('node:perf_hooks');
const h = monitorEventLoopDelay({ resolution: 5 });
h.enable();
parentPort.on('message', (m) => {
  if (m === 'read') { parentPort.postMessage(h.max / 1e6); h.reset(); }
  if (m === 'stop') { h.disable(); parentPort.close(); }
});
`;

export interface LoopControl {
  /** the longest the idle thread's loop was late since the last read, ms */
  read(): Promise<number>;
  stop(): Promise<void>;
}

export function startLoopControl(): LoopControl {
  const worker = new Worker(CONTROL, { eval: true });
  return {
    read: () =>
      new Promise<number>((resolve) => {
        worker.once('message', (ms: number) => resolve(ms));
        worker.postMessage('read');
      }),
    async stop() {
      worker.postMessage('stop');
      await worker.terminate();
    },
  };
}
