import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import type { Service } from '../core/service.ts';
import { createHttpApp } from './app.ts';
import { localOrigins, type LocalOrigins } from './guards.ts';

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

/** Starts the HTTP API on host:port (port 0 picks a free one). */
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
  const app = createHttpApp(service, {
    origins: () => origins, webRoot: options.webRoot, log: options.log, rateLimit: options.rateLimit, anonymousRateLimit: options.anonymousRateLimit,
  });
  const t = { ...DEFAULT_SOCKET_TIMEOUTS, ...options.timeouts };
  const serverOptions = {
    headersTimeout: t.idleMs,
    requestTimeout: Math.max(t.requestMs, t.idleMs),
    keepAliveTimeout: t.keepAliveMs,
    // how often Node checks headersTimeout and requestTimeout
    connectionsCheckingInterval: Math.max(50, Math.min(5_000, Math.floor(t.idleMs / 2))),
  };
  const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
    const s = serve({ fetch: app.fetch, hostname: options.host, port: options.port, serverOptions }, () => resolve(s));
    s.once('error', reject);
  });
  closeIdleSockets(server as unknown as Server, t.idleMs);
  const port = (server.address() as AddressInfo).port;
  origins = localOrigins(port, options.host);
  const hostForUrl = options.host.includes(':') ? `[${options.host}]` : options.host;
  return {
    host: options.host,
    port,
    url: `http://${hostForUrl}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        (server as { closeAllConnections?: () => void }).closeAllConnections?.();
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
