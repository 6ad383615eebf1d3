// Worker thread: the service's HTTP API on a data dir and, beside it, the same-bytes
// yardstick (yardstick.ts) over the same database file and a bare node:http server
// that only reads what it is sent (the floor of an upload). All run on this thread,
// so the benchmark's client (the main thread) and the servers do not share an event
// loop, as with a real client in another process. The service runs with its default
// rate limits: a benchmark is a local tool with the owner token.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { constants, monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';
import { parentPort, workerData } from 'node:worker_threads';
import { openService } from '../../src-main/core/service.ts';
import { startHttpServer } from '../../src-main/http/server.ts';
import { startYardstick, type Yardstick } from './yardstick.ts';

export interface ServerWorkerData {
  dataDir: string;
  /** start the yardstick too (it needs a database with entries' tables and a cursor secret) */
  yardstick: boolean;
  /** service options: false keeps the job runner or sync timer off */
  runJobs?: boolean;
  /** `postgres://…`: the service keeps its records there instead of the data dir's SQLite file */
  databaseUrl?: string;
}

export interface LoopDelay {
  /** the longest the event loop was held, ms (a task that ran this long delayed everything queued behind it) */
  max: number;
  p99: number;
  mean: number;
  /** the longest garbage collection pause on the server thread over the same time, ms, and its kind: a block this long was V8's */
  gc: { ms: number; kind: string };
  /** the same, on an idle thread over the same time (loop-control.ts): what the machine alone caused */
  control?: number;
}

export type ServerWorkerMessage =
  | { type: 'ready'; apiUrl: string; bareUrl: string; yardstickUrl?: string }
  | { type: 'loop-delay'; delay: LoopDelay }
  | { type: 'closed' }
  | { type: 'error'; message: string };

const port = parentPort!;
const { dataDir, yardstick: withYardstick, runJobs, databaseUrl } = workerData as ServerWorkerData;

try {
  const loop = monitorEventLoopDelay({ resolution: 5 });
  loop.enable();
  let longestGc = { ms: 0, kind: '' };
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if (e.duration > longestGc.ms) longestGc = { ms: e.duration, kind: gcKind(((e as PerformanceEntry & { detail?: { kind?: number } }).detail)?.kind) };
  }).observe({ entryTypes: ['gc'] });
  const service = await openService(dataDir, { runJobs: runJobs ?? true, autoSync: false, databaseUrl });
  const api = await startHttpServer(service, { host: '127.0.0.1', port: 0 });
  const yardstick: Yardstick | undefined = withYardstick ? await startYardstick(`${dataDir}/silodesk.db`) : undefined;

  const bare = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': 2 });
      res.end('{}');
    });
  });
  await new Promise<void>((resolve, reject) => {
    bare.once('error', reject);
    bare.listen(0, '127.0.0.1', () => resolve());
  });
  const bareUrl = `http://127.0.0.1:${(bare.address() as AddressInfo).port}`;

  const onMessage = async (msg: { type: string }) => {
    if (msg.type === 'loop-delay') {
      const ms = (ns: number) => ns / 1e6;
      port.postMessage({
        type: 'loop-delay',
        delay: { max: ms(loop.max), p99: ms(loop.percentile(99)), mean: ms(loop.mean), gc: longestGc },
      } satisfies ServerWorkerMessage);
      loop.reset();
      longestGc = { ms: 0, kind: '' };
      return;
    }
    if (msg.type !== 'close') return;
    loop.disable();
    await api.close();
    await yardstick?.close();
    await new Promise<void>((resolve) => {
      bare.close(() => resolve());
      bare.closeAllConnections();
    });
    await service.close();
    port.postMessage({ type: 'closed' } satisfies ServerWorkerMessage);
    port.close();
  };
  // a close that fails is told to the main thread, as a failed start is
  port.on('message', (msg: { type: string }) => {
    void onMessage(msg).catch((err: unknown) => {
      port.postMessage({ type: 'error', message: (err as Error)?.stack ?? String(err) } satisfies ServerWorkerMessage);
    });
  });
  loop.reset();
  longestGc = { ms: 0, kind: '' };
  port.postMessage({ type: 'ready', apiUrl: api.url, bareUrl, yardstickUrl: yardstick?.url } satisfies ServerWorkerMessage);
} catch (err) {
  port.postMessage({ type: 'error', message: (err as Error)?.stack ?? String(err) } satisfies ServerWorkerMessage);
}

/** A GC entry's kind (perf_hooks' constants) in words. */
function gcKind(kind: number | undefined): string {
  const { NODE_PERFORMANCE_GC_MAJOR, NODE_PERFORMANCE_GC_MINOR, NODE_PERFORMANCE_GC_INCREMENTAL, NODE_PERFORMANCE_GC_WEAKCB } = constants;
  if (kind === NODE_PERFORMANCE_GC_MAJOR) return 'mark-compact';
  if (kind === NODE_PERFORMANCE_GC_MINOR) return 'scavenge';
  if (kind === NODE_PERFORMANCE_GC_INCREMENTAL) return 'incremental marking';
  if (kind === NODE_PERFORMANCE_GC_WEAKCB) return 'weak callbacks';
  return 'other';
}
