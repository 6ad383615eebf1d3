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

/** Starts the HTTP API on host:port (port 0 picks a free one). */
export async function startHttpServer(
  service: Service,
  options: { host: string; port: number; webRoot?: string; log?: (line: string) => void; rateLimit?: { perSecond: number; burst: number } },
): Promise<RunningServer> {
  let origins: LocalOrigins = localOrigins(options.port, options.host);
  const app = createHttpApp(service, { origins: () => origins, webRoot: options.webRoot, log: options.log, rateLimit: options.rateLimit });
  const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
    const s = serve({ fetch: app.fetch, hostname: options.host, port: options.port }, () => resolve(s));
    s.once('error', reject);
  });
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
