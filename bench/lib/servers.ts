import { once } from 'node:events';
import type { EventLoopUtilization } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import type { ServerWorkerData, ServerWorkerMessage } from './server-worker.ts';

export interface Servers {
  /** the service's HTTP API, e.g. http://127.0.0.1:40123 */
  apiUrl: string;
  /** a bare node:http server answering a small fixed JSON: the floor of any round trip */
  bareUrl: string;
  /** event-loop utilization of the server thread (pass a previous reading to get the delta) */
  serverUtilization(previous?: EventLoopUtilization): EventLoopUtilization;
  close(): Promise<void>;
}

/** Starts the service's HTTP API on dataDir, and the bare server, in a worker thread. */
export async function startServers(dataDir: string): Promise<Servers> {
  const worker = new Worker(new URL('./server-worker.ts', import.meta.url), {
    workerData: { dataDir } satisfies ServerWorkerData,
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
  return {
    apiUrl: ready.apiUrl,
    bareUrl: ready.bareUrl,
    serverUtilization: (previous) => worker.performance.eventLoopUtilization(previous),
    async close() {
      if (closed) return;
      closed = true;
      const done = next().catch(() => undefined);
      worker.postMessage({ type: 'close' });
      const timeout = new Promise((resolve) => setTimeout(resolve, 5000).unref());
      await Promise.race([Promise.all([done, once(worker, 'exit')]), timeout]);
      await worker.terminate();
    },
  };
}
