// The operations' own requests, taken from Node's request as it is: the Hono app (app.ts) would
// first wrap each one in web Request, Context and Response objects and run it through its
// middleware, which cost a single-entry read a fifth of its time. Matched, guarded, logged and
// answered as the app does it, and called through the same operation-call.ts. What this front
// does not take (another path, HEAD, a path that needs decoding or normalising, a Host or
// Origin the guard refuses) goes to the app, which answers it as before.
import { createReadStream } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { pipeline, Readable } from 'node:stream';
import { getQueryParam } from 'hono/utils/url';
import type { RegisteredOperation } from '../core/api/registry.ts';
import type { HttpEndpoints } from './app.ts';
import type { BodySource } from './body.ts';
import { refusalReason, type LocalOrigins } from './guards.ts';
import { errorAnswer, type Answer } from './operation-call.ts';

// A request target the app reads as it is written (@hono/node-server builds its URL from the
// text only when it is this plain, and neither decodes nor normalises it): no `%`, no `#`, no
// dot segments. A Host of the same kind.
const PLAIN_TARGET = /^\/[!$&-;=?-[\]_a-z~]*$/;
const DOT_SEGMENT = /\/\.\.?(?:[/?]|$)/;
const PLAIN_HOST = /^[a-z0-9._-]+(?::(?:[1-5]\d{3,4}|[6-9]\d{3}))?$/;

type Segment = string | { param: string };
interface Route {
  op: RegisteredOperation;
  segments: Segment[];
}

/** Takes a request (and answers it) when it is an operation's own; false leaves it to the app. */
export type NodeFront = (req: IncomingMessage, res: ServerResponse) => boolean;

export function nodeFront(endpoints: HttpEndpoints, options: { origins: () => LocalOrigins; log?: (line: string) => void }): NodeFront {
  const routes = routesByMethod(endpoints.operations);
  const { call } = endpoints;
  const { log } = options;

  return (req, res) => {
    const target = req.url ?? '';
    const byLength = routes.get(req.method ?? '');
    if (!byLength || !PLAIN_TARGET.test(target) || DOT_SEGMENT.test(target)) return false;
    const host = req.headers.host;
    if (host === undefined || !PLAIN_HOST.test(host)) return false;
    if (refusalReason(options.origins(), host, header(req, 'origin')) !== undefined) return false;
    const at = target.indexOf('?');
    const pathname = at === -1 ? target : target.slice(0, at);
    const parts = pathname.split('/');
    const found = match(byLength.get(parts.length), parts);
    if (!found) return false;

    const started = performance.now();
    const method = req.method!;
    // Not awaited: the answer is sent when ready (an error of the call becomes an error answer below).
    void call(found.op, {
      label: () => `${method} ${pathname}`,
      params: found.params,
      // Hono's own reading of a query string: the first of a repeated name, `+` as a space.
      query: at === -1 ? {} : (getQueryParam(`http://h${target}`) as Record<string, string>),
      header: (name) => header(req, name),
      remoteAddress: req.socket.remoteAddress,
      body: () => bodyOf(req),
    })
      .catch((err: unknown) => errorAnswer(err, () => `${method} ${pathname}`, log, true))
      .then((answer) => {
        send(res, answer);
        // Method, path and status only: never the query (tokens, search text) or bodies.
        log?.(`${method} ${pathname} ${answer.status} ${(performance.now() - started).toFixed(1)}ms`);
      });
    return true;
  };
}

/** The operations by method, then by how many path segments they have, in the app's order. */
function routesByMethod(operations: RegisteredOperation[]): Map<string, Map<number, Route[]>> {
  const out = new Map<string, Map<number, Route[]>>();
  for (const op of operations) {
    const segments: Segment[] = op.contract.path.split('/').map((s) => (/^\{\w+\}$/.test(s) ? { param: s.slice(1, -1) } : s));
    const byLength = out.get(op.contract.method) ?? new Map<number, Route[]>();
    out.set(op.contract.method, byLength);
    const list = byLength.get(segments.length) ?? [];
    byLength.set(segments.length, list);
    list.push({ op, segments });
  }
  return out;
}

/** The first route whose static segments are the path's and whose parameters are not empty, as the app's router takes it. */
function match(routes: Route[] | undefined, parts: string[]): { op: RegisteredOperation; params: Record<string, string> } | undefined {
  if (!routes) return undefined;
  next: for (const route of routes) {
    let params: Record<string, string> | undefined;
    for (let i = 0; i < parts.length; i++) {
      const segment = route.segments[i];
      if (typeof segment === 'string') {
        if (segment !== parts[i]) continue next;
      } else {
        if (parts[i] === '') continue next;
        (params ??= {})[segment.param] = parts[i];
      }
    }
    return { op: route.op, params: params ?? {} };
  }
  return undefined;
}

/** A request header as Node parsed it; one sent twice reads as Node joins it. */
function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

/**
 * The request's body as a web stream, read as the caller pulls it. Cancelled (a body over its
 * cap), it stops reading: the answer then closes the connection, as for any unread body.
 */
function bodyOf(req: IncomingMessage): BodySource {
  let settled = false;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      const settle = (end: () => void) => {
        if (settled) return;
        settled = true;
        end();
      };
      req.on('data', (chunk: Buffer) => {
        if (settled) return;
        controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
        if ((controller.desiredSize ?? 1) <= 0) req.pause();
      });
      req.once('end', () => settle(() => controller.close()));
      req.once('error', (err) => settle(() => controller.error(err)));
      req.once('close', () => {
        if (!req.complete) settle(() => controller.error(new Error('the request was cut off')));
      });
      req.pause();
    },
    pull() {
      req.resume();
    },
    cancel() {
      settled = true;
      req.pause();
    },
  });
  return { headers: { get: (name) => header(req, name.toLowerCase()) ?? null }, body };
}

function send(res: ServerResponse, answer: Answer): void {
  const { body } = answer;
  if (typeof body === 'string' || body instanceof Uint8Array) {
    res.writeHead(answer.status, { ...answer.headers, 'Content-Length': typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength });
    res.end(body);
    return;
  }
  if ('chunks' in body) {
    res.writeHead(answer.status, { ...answer.headers, 'Content-Length': body.length });
    pipeline(Readable.from(body.chunks()), res, () => undefined);
    return;
  }
  res.writeHead(answer.status, answer.headers);
  // A file that cannot be read to its end leaves the answer cut short, never padded; a client
  // that goes away closes the file.
  pipeline(createReadStream(body.file), res, () => undefined);
}
