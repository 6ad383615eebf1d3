import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import type { Hono } from 'hono';
import { startService, type Service } from '../core/service.ts';
import { localOrigins, type LocalOrigins } from './guards.ts';
import type { NodeFront } from './node-front.ts';

export interface RunningServer {
  host: string;
  port: number;
  url: string;
  close(): Promise<void>;
}

/** How long sockets may sit idle. Node closes none that never sent a byte; these close every kind. */
export interface SocketTimeouts {
  /** a connection that has not sent a complete request yet (nothing at all, or headers trickling in) */
  idleMs: number;
  /** after a response, waiting for the next request on a kept-alive connection */
  keepAliveMs: number;
  /** the whole request, body included (a 72 MiB sync upload on a slow link must fit) */
  requestMs: number;
}

export const DEFAULT_SOCKET_TIMEOUTS: SocketTimeouts = { idleMs: 15_000, keepAliveMs: 5_000, requestMs: 300_000 };

type Fetch = Hono['fetch'];

/**
 * Starts the HTTP API on host:port (port 0 picks a free one). The port opens first: the API's
 * routes and handlers (most of the service's code) are loaded right after, and a request that
 * comes sooner waits for them. They also wait for the service's job engine and sync (startService).
 */
export async function startHttpServer(
  service: Service,
  options: {
    host: string;
    port: number;
    webRoot?: string;
    log?: (line: string) => void;
    rateLimit?: { perSecond: number; burst: number; exemptLocalOwner?: boolean };
    anonymousRateLimit?: { perSecond: number; burst: number };
    timeouts?: Partial<SocketTimeouts>;
  },
): Promise<RunningServer> {
  let origins: LocalOrigins = localOrigins(options.port, options.host);
  let loading: Promise<Fetch> | undefined;
  const loadApp = (): Promise<Fetch> =>
    (loading ??= (async () => {
      const [{ createHttpEndpoints }, { nodeFront }] = await Promise.all([import('./app.ts'), import('./node-front.ts'), startService(service)]);
      const endpoints = createHttpEndpoints(service, {
        origins: () => origins, webRoot: options.webRoot, log: options.log, rateLimit: options.rateLimit, anonymousRateLimit: options.anonymousRateLimit,
      });
      front = nodeFront(endpoints, { origins: () => origins, log: options.log });
      handle = endpoints.app.fetch;
      return handle;
    })());
  // Until the app is in place, each request waits for it; then each goes straight to it, an
  // operation's own request straight to the operation (node-front.ts).
  let handle: Fetch = async (request, env, ctx) => (await loadApp())(request, env, ctx);
  let front: NodeFront | undefined;
  const app = getRequestListener((request, env) => handle(request, env), { hostname: options.host });
  const listener = (req: IncomingMessage, res: ServerResponse) => {
    if (front === undefined || !front(req, res)) void app(req, res);
  };
  const t = { ...DEFAULT_SOCKET_TIMEOUTS, ...options.timeouts };
  const serverOptions = {
    headersTimeout: t.idleMs,
    requestTimeout: Math.max(t.requestMs, t.idleMs),
    keepAliveTimeout: t.keepAliveMs,
    // how often Node checks headersTimeout and requestTimeout
    connectionsCheckingInterval: Math.max(50, Math.min(5_000, Math.floor(t.idleMs / 2))),
  };
  const server = createServer(serverOptions, listener);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  closeIdleSockets(server, t.idleMs);
  const port = (server.address() as AddressInfo).port;
  origins = localOrigins(port, options.host);
  // Loaded once whoever started the server has taken its turn (serve prints that it listens).
  setImmediate(() => {
    loadApp().catch((err: unknown) => options.log?.(`internal error loading the HTTP API: ${(err as Error)?.stack ?? err}`));
  });
  const hostForUrl = options.host.includes(':') ? `[${options.host}]` : options.host;
  return {
    host: options.host,
    port,
    url: `http://${hostForUrl}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * A connection that never sends a request would otherwise stay open for good
 * (Node's header timeout starts with the first byte), each one holding a socket:
 * a cheap way to exhaust the server. Armed when the connection opens, off while a
 * request is being served (a sync run may wait up to a minute), and Node's own
 * keep-alive timeout takes over after each response.
 */
function closeIdleSockets(server: Server, idleMs: number): void {
  server.on('connection', (socket) => {
    socket.setTimeout(idleMs);
    socket.on('timeout', () => {
      if (!busy.has(socket)) socket.destroy();
    });
  });
  const busy = new WeakSet<object>();
  server.on('request', (req, res) => {
    busy.add(req.socket);
    req.socket.setTimeout(0);
    res.once('close', () => busy.delete(req.socket));
  });
}
