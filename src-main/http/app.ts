import { createReadStream } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import { Hono, type Context } from 'hono';
import { serveStatic } from '@hono/node-server/serve-static';
import { ApiError } from '../core/api/errors.ts';
import { openApiDocument } from '../core/api/openapi.ts';
import { registry, type RegisteredOperation } from '../core/api/registry.ts';
import type { Service } from '../core/service.ts';
import { refusalReason, type LocalOrigins } from './guards.ts';
import { operationCaller, type Answer, type CallLimits, type OperationCaller } from './operation-call.ts';

export interface HttpAppOptions extends CallLimits {
  /** Host/Origin allow-list; computed once the port is known */
  origins: () => LocalOrigins;
  /** folder of the built web UI, served at `/` */
  webRoot?: string;
  /**
   * calls per second and burst allowed per token (default 500/s, burst 1000); the owner's own
   * tools over loopback are exempt unless `exemptLocalOwner` is false (a test standing in for a
   * remote on another machine, where the exemption never applies)
   */
  rateLimit?: { perSecond: number; burst: number; exemptLocalOwner?: boolean };
  /** per client address, for calls without a valid token: public ones and refused ones (default 20/s, burst 100) */
  anonymousRateLimit?: { perSecond: number; burst: number };
}

/** The API of one server: the Hono app, and the call of an operation that it shares with node-front.ts. */
export interface HttpEndpoints {
  app: Hono;
  /** the operations, static segments before parameters (the order a path is matched in) */
  operations: RegisteredOperation[];
  call: OperationCaller;
}

/**
 * The HTTP adapter: one route per registry operation, generated, never written by
 * hand. Every request passes the Host/Origin guard; every non-public operation
 * needs a bearer token, which decides the company it acts for.
 */
export function createHttpApp(service: Service, options: HttpAppOptions): Hono {
  return createHttpEndpoints(service, options).app;
}

export function createHttpEndpoints(service: Service, options: HttpAppOptions): HttpEndpoints {
  const app = new Hono();
  const call = operationCaller(service, options);

  app.use('*', async (c, next) => {
    const started = performance.now();
    const reason = refusalReason(options.origins(), headerOf(c, 'host'), headerOf(c, 'origin'));
    if (reason) {
      const error = new ApiError('forbidden', reason);
      c.res = c.json(error.toBody(), 403);
    } else {
      await next();
    }
    markResponse(c);
    // Method, path and status only: never the query (tokens, search text) or bodies.
    options.log?.(`${c.req.method} ${new URL(c.req.url).pathname} ${c.res.status} ${(performance.now() - started).toFixed(1)}ms`);
  });

  // Made on first ask: turning every contract into JSON Schema takes tens of milliseconds.
  let openapi: ReturnType<typeof openApiDocument> | undefined;
  app.get('/openapi.json', (c) => c.json((openapi ??= openApiDocument())));

  // Static segments before parameters, so /entries/key/{key} is not read as /entries/{id}/…
  const operations = [...registry].sort((a, b) => specificity(b.contract.path) - specificity(a.contract.path));
  for (const op of operations) {
    const honoPath = op.contract.path.replace(/\{(\w+)\}/g, ':$1');
    app.on(op.contract.method, honoPath, async (c) => {
      const answer = await call(op, {
        label: () => `${c.req.method} ${new URL(c.req.url).pathname}`,
        params: c.req.param(),
        query: c.req.query(),
        header: (name) => headerOf(c, name),
        remoteAddress: remoteAddress(c),
        body: () => c.req.raw,
      });
      return responseOf(answer);
    });
  }

  app.all('/:area{(silo|transform|sequence|access|utils|sync)}/*', (c) =>
    c.json(new ApiError('not-found', `no operation at ${c.req.method} ${new URL(c.req.url).pathname}`).toBody(), 404),
  );

  if (options.webRoot) {
    const root = options.webRoot;
    app.use('/*', async (c, next) => {
      await next();
      c.header('Content-Security-Policy', WEB_CSP);
    });
    app.get('/*', serveStatic({ root }));
    app.get('/*', serveStatic({ root, path: 'index.html' }));
  }
  return { app, operations, call };
}

const WEB_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; " +
  "connect-src 'self'; object-src 'none'; frame-src 'self' blob:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

function specificity(path: string): number {
  return path.split('/').filter((s) => s && !s.startsWith('{')).length * 10 - (path.match(/\{/g)?.length ?? 0);
}

/** The client's address, as the socket has it (never a header a client could set). */
function remoteAddress(c: Context): string | undefined {
  return (c.env as { incoming?: IncomingMessage } | undefined)?.incoming?.socket?.remoteAddress;
}

/**
 * A request header, read from Node's own parsed headers: asking Hono builds a web
 * Headers object from the raw ones first, for every request. Names are lower case;
 * a header sent twice reads as Node joins it.
 */
function headerOf(c: Context, name: string): string | undefined {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  if (!incoming) return c.req.header(name);
  const value = incoming.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

/** Answers made with their headers already set: nothing to add to them. */
const marked = new WeakSet<Response>();

/**
 * An answer as a Response, its body serialized once and handed to the socket as it is,
 * its headers a plain object (no Headers instance to build and read back).
 */
function responseOf(answer: Answer): Response {
  const { body } = answer;
  const payload =
    typeof body === 'string' || body instanceof Uint8Array ? body
    : 'chunks' in body ? (Readable.toWeb(Readable.from(body.chunks())) as ReadableStream)
    : (Readable.toWeb(createReadStream(body.file)) as ReadableStream);
  const res = new Response(payload as BodyInit, { status: answer.status, headers: answer.headers });
  marked.add(res);
  return res;
}

/**
 * Every answer says nosniff and no-referrer. Set on the response's own headers: Hono's
 * c.header() on a finished response rebuilds it around its body as a stream, which
 * costs a second copy of every body (a tenth of a millisecond on a list page).
 */
function markResponse(c: Context): void {
  if (marked.has(c.res)) return;
  try {
    c.res.headers.set('X-Content-Type-Options', 'nosniff');
    c.res.headers.set('Referrer-Policy', 'no-referrer');
  } catch {
    // A response with immutable headers (a redirect made by a helper): rebuilt, as before.
    c.header('X-Content-Type-Options', 'nosniff');
    c.header('Referrer-Policy', 'no-referrer');
  }
}
