// Worker thread: the service's HTTP API on a data dir, and beside it a bare
// node:http server answering a small fixed JSON. Both run on this thread, so the
// benchmark's client (the main thread) and the servers do not share an event
// loop, as with a real client in another process.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parentPort, workerData } from 'node:worker_threads';
import { openService } from '../../src-main/core/service.ts';
import { startHttpServer } from '../../src-main/http/server.ts';

export interface ServerWorkerData {
  dataDir: string;
}

export type ServerWorkerMessage =
  | { type: 'ready'; apiUrl: string; bareUrl: string }
  | { type: 'closed' }
  | { type: 'error'; message: string };

const port = parentPort!;
const { dataDir } = workerData as ServerWorkerData;

try {
  const service = await openService(dataDir);
  // Throughput is what is measured here, not the per-token rate policy.
  const api = await startHttpServer(service, { host: '127.0.0.1', port: 0, rateLimit: { perSecond: 1e9, burst: 1e9 } });

  const BARE_BODY = Buffer.from(JSON.stringify({ list: [], limit: 20, ok: true }));
  const bare = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': BARE_BODY.length });
      res.end(BARE_BODY);
    });
  });
  await new Promise<void>((resolve, reject) => {
    bare.once('error', reject);
    bare.listen(0, '127.0.0.1', () => resolve());
  });
  const bareUrl = `http://127.0.0.1:${(bare.address() as AddressInfo).port}`;

  port.on('message', async (msg: { type: string }) => {
    if (msg.type !== 'close') return;
    await api.close();
    await new Promise<void>((resolve) => {
      bare.close(() => resolve());
      bare.closeAllConnections();
    });
    service.close();
    port.postMessage({ type: 'closed' } satisfies ServerWorkerMessage);
    port.close();
  });
  port.postMessage({ type: 'ready', apiUrl: api.url, bareUrl } satisfies ServerWorkerMessage);
} catch (err) {
  port.postMessage({ type: 'error', message: (err as Error)?.stack ?? String(err) } satisfies ServerWorkerMessage);
}
