import { createReadStream } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import { Hono, type Context } from 'hono';
import { serveStatic } from '@hono/node-server/serve-static';
import { resolveToken, type Caller } from '../core/access/tokens.ts';
import { ApiError, toApiError } from '../core/api/errors.ts';
import { invokeOperation } from '../core/api/invoke.ts';
import { declaredHeaders, type BinaryResult, type OperationContract } from '../core/api/operation.ts';
import { openApiDocument } from '../core/api/openapi.ts';
import { registry } from '../core/api/registry.ts';
import type { Service } from '../core/service.ts';
import { contentDisposition } from '../core/silo/file-name.ts';
import { readOperationBody } from './body-forms.ts';
import { refusalReason, type LocalOrigins } from './guards.ts';
import { isOwnersLocalTool, RateLimiter } from './rate-limit.ts';

export interface HttpAppOptions {
  /** Host/Origin allow-list; computed once the port is known */
  origins: () => LocalOrigins;
  /** folder of the built web UI, served at `/` */
  webRoot?: string;
  log?: (line: string) => void;
  /**
   * calls per second and burst allowed per token (default 500/s, burst 1000); the owner's own
   * tools over loopback are exempt unless `exemptLocalOwner` is false (a test standing in for a
   * remote on another machine, where the exemption never applies)
   */
  rateLimit?: { perSecond: number; burst: number; exemptLocalOwner?: boolean };
  /** per client address, for calls without a valid token: public ones and refused ones (default 20/s, burst 100) */
  anonymousRateLimit?: { perSecond: number; burst: number };
}

const ANONYMOUS: Caller = { companyId: '', kind: 'user' };

/**
 * The HTTP adapter: one route per registry operation, generated, never written by
 * hand. Every request passes the Host/Origin guard; every non-public operation
 * needs a bearer token, which decides the company it acts for.
 */
export function createHttpApp(service: Service, options: HttpAppOptions): Hono {
  const app = new Hono();
  const limiter = new RateLimiter(options.rateLimit ?? { perSecond: 500, burst: 1000 });
  const exemptLocalOwner = options.rateLimit?.exemptLocalOwner ?? true;
  // Calls that carry no valid token are counted per client address, each address on its own:
  // guessing tokens is slowed down, and one noisy client does not lock the others out.
  const anonymous = new RateLimiter(options.anonymousRateLimit ?? { perSecond: 20, burst: 100 });

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

  const openapi = openApiDocument();
  app.get('/openapi.json', (c) => c.json(openapi));

  // Static segments before parameters, so /entries/key/{key} is not read as /entries/{id}/…
  const ordered = [...registry].sort((a, b) => specificity(b.contract.path) - specificity(a.contract.path));
  for (const op of ordered) {
    const { contract } = op;
    const honoPath = contract.path.replace(/\{(\w+)\}/g, ':$1');
    app.on(contract.method, honoPath, async (c) => {
      let bodyRead = !contract.body;
      try {
        const caller = contract.access === 'public' ? ANONYMOUS : authenticateLimited(service, c, anonymous);
        const exempt = exemptLocalOwner && isOwnersLocalTool(caller, remoteAddress(c));
        const wait = exempt ? 0 : caller.tokenId ? limiter.take(caller.tokenId) : anonymous.take(clientKey(c));
        if (wait > 0) throw rateLimited(wait);
        const body = contract.body ? await readOperationBody(c.req.raw, contract) : undefined;
        bodyRead = true;
        const result = await invokeOperation({ service, caller }, op.name, {
          params: c.req.param(),
          query: c.req.query(),
          body,
          headers: headersOf(c, contract),
        });
        if (contract.output === 'binary') return sendBinary(c, result as BinaryResult);
        return sendJson(result);
      } catch (err) {
        // An unread body would be taken for the next request on a kept-alive socket.
        return sendError(c, err, options.log, !bodyRead);
      }
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
  return app;
}

const WEB_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; " +
  "connect-src 'self'; object-src 'none'; frame-src 'self' blob:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** The request headers the operation declares, and only those: nothing else of the request reaches a handler. */
function headersOf(c: Context, contract: OperationContract): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of declaredHeaders(contract)) {
    const value = headerOf(c, name);
    if (value !== undefined) out[name] = value;
  }
  return out;
}

function specificity(path: string): number {
  return path.split('/').filter((s) => s && !s.startsWith('{')).length * 10 - (path.match(/\{/g)?.length ?? 0);
}

/** The bearer token's caller; a call without a valid one is counted against its address first. */
function authenticateLimited(service: Service, c: Context, anonymous: RateLimiter): Caller {
  try {
    return authenticate(service, c);
  } catch (err) {
    const wait = anonymous.take(clientKey(c));
    if (wait > 0) throw rateLimited(wait);
    throw err;
  }
}

const rateLimited = (wait: number) =>
  new ApiError('rate-limited', `too many requests; retry in ${wait} s`, undefined, { 'Retry-After': String(wait) });

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

function clientKey(c: Context): string {
  return `address:${remoteAddress(c) ?? 'unknown'}`;
}

const JSON_HEADERS = { 'Content-Type': 'application/json', 'X-Content-Type-Options': 'nosniff', 'Referrer-Policy': 'no-referrer' };
/** Answers made with their headers already set: nothing to add to them. */
const marked = new WeakSet<Response>();

/**
 * An operation's answer: the body serialized once and handed to the socket as it is,
 * its headers a plain object (no Headers instance to build and read back).
 */
function sendJson(result: unknown): Response {
  const res = new Response(JSON.stringify(result), { status: 200, headers: JSON_HEADERS });
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

function authenticate(service: Service, c: Context): Caller {
  const header = headerOf(c, 'authorization') ?? '';
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match) throw new ApiError('unauthorized', 'an Authorization: Bearer <token> header is required', undefined, { 'WWW-Authenticate': 'Bearer' });
  const caller = resolveToken(service.store, match[1]);
  if (!caller) throw new ApiError('unauthorized', 'the token is not valid', undefined, { 'WWW-Authenticate': 'Bearer' });
  return caller;
}

function sendBinary(c: Context, file: BinaryResult): Response {
  const headers: Record<string, string> = {
    'Content-Type': file.mime,
    'Content-Length': String(file.size),
    'Content-Disposition': contentDisposition(file.name, file.inline),
    'X-Content-Type-Options': 'nosniff',
    // Even if a browser were told to render it, an attachment runs nothing.
    'Content-Security-Policy': "sandbox; default-src 'none'; style-src 'unsafe-inline'; img-src data:",
    'Cache-Control': 'private, max-age=0, must-revalidate',
  };
  const body = file.file ? (Readable.toWeb(createReadStream(file.file)) as ReadableStream) : file.bytes!;
  return new Response(body as BodyInit, { status: 200, headers });
}

function sendError(c: Context, err: unknown, log?: (line: string) => void, closeConnection = false): Response {
  const error = toApiError(err);
  if (error.key === 'internal') log?.(`internal error in ${c.req.method} ${new URL(c.req.url).pathname}: ${(err as Error)?.stack ?? err}`);
  return new Response(JSON.stringify(error.toBody()), {
    status: error.status,
    headers: {
      'Content-Type': 'application/json; charset=utf-8',
      ...(closeConnection ? { Connection: 'close' } : {}),
      ...(error.headers ?? {}),
    },
  });
}
