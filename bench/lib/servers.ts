import { once } from 'node:events';
import type { EventLoopUtilization } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { startLoopControl } from './loop-control.ts';
import { SERVICE_YOUNG_GENERATION_MB } from '../../src-main/service-process/heap.ts';
import type { LoopDelay, ServerWorkerData, ServerWorkerMessage } from './server-worker.ts';

export interface Servers {
  /** the service's HTTP API, e.g. http://127.0.0.1:40123 */
  apiUrl: string;
  /** the same-bytes yardstick (yardstick.ts), when asked for */
  yardstickUrl?: string;
  /** a node:http server that reads what it is sent and answers {}: the floor of an upload */
  bareUrl: string;
  /** event-loop utilization of the server thread (pass a previous reading to get the delta) */
  serverUtilization(previous?: EventLoopUtilization): EventLoopUtilization;
  /** how long the server thread's event loop was held since the last call (or since start) */
  loopDelay(): Promise<LoopDelay>;
  close(): Promise<void>;
}

/**
 * Starts the service's HTTP API on dataDir (and the yardstick, and the bare server) in a worker thread;
 * with a databaseUrl, the service keeps its records on that PostgreSQL database (files and keys stay in dataDir).
 */
export async function startServers(dataDir: string, options: { yardstick?: boolean; runJobs?: boolean; databaseUrl?: string } = {}): Promise<Servers> {
  if (options.yardstick && options.databaseUrl) throw new Error('the yardstick reads the data dir’s SQLite file: not with a databaseUrl');
  const worker = new Worker(new URL('./server-worker.ts', import.meta.url), {
    // The service's young generation, as its own process has it (service-process/heap.ts).
    resourceLimits: { maxYoungGenerationSizeMb: SERVICE_YOUNG_GENERATION_MB },
    workerData: { dataDir, yardstick: options.yardstick ?? false, runJobs: options.runJobs, databaseUrl: options.databaseUrl } satisfies ServerWorkerData,
  });
  const next = () =>
    new Promise<ServerWorkerMessage>((resolve, reject) => {
      const onMessage = (m: ServerWorkerMessage) => {
        worker.off('error', onError);
        resolve(m);
      };
      const onError = (err: Error) => {
        worker.off('message', onMessage);
        reject(err);
      };
      worker.once('message', onMessage);
      worker.once('error', onError);
    });
  const ready = await next();
  if (ready.type !== 'ready') {
    await worker.terminate();
    throw new Error(`server worker failed: ${ready.type === 'error' ? ready.message : ready.type}`);
  }
  let closed = false;
  const control = startLoopControl();
  return {
    apiUrl: ready.apiUrl,
    yardstickUrl: ready.yardstickUrl,
    bareUrl: ready.bareUrl,
    serverUtilization: (previous) => worker.performance.eventLoopUtilization(previous),
    async loopDelay() {
      const answer = next();
      worker.postMessage({ type: 'loop-delay' });
      const m = await answer;
      if (m.type !== 'loop-delay') throw new Error(`server worker answered ${m.type}`);
      return { ...m.delay, control: await control.read() };
    },
    async close() {
      if (closed) return;
      closed = true;
      await control.stop();
      const done = next().catch(() => undefined);
      worker.postMessage({ type: 'close' });
      const timeout = new Promise((resolve) => setTimeout(resolve, 10_000).unref());
      await Promise.race([Promise.all([done, once(worker, 'exit')]), timeout]);
      await worker.terminate();
    },
  };
}
