import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpEndpoints, type HttpEndpoints } from '../../src-main/http/app.ts';
import { localOrigins, type LocalOrigins } from '../../src-main/http/guards.ts';
import { nodeFront } from '../../src-main/http/node-front.ts';
import { loadEnvelope } from '../fixtures/gobl/load.ts';
import { startTestServer, type TestServer } from './harness.ts';

/**
 * The operations' own requests skip the Hono app (node-front.ts, issue 13: one entry ≤ 1.3× the
 * yardstick). Whatever the front takes it must answer as the app does, and what it cannot read
 * as the app would (a path to decode, HEAD, a refused Host) it must leave to the app.
 */
let t: TestServer;
let endpoints: HttpEndpoints;
let server: Server;
let appServer: Server;
let base: string;
let appBase: string;
let origins: LocalOrigins;
const taken: boolean[] = [];
const lines: string[] = [];
const ids: string[] = [];

beforeAll(async () => {
  t = await startTestServer();
  for (const code of ['NF-1', 'NF-2', 'NF-3']) {
    const res = await t.call('POST', '/silo/v1/entries', { data: { ...loadEnvelope('es-invoice-es-es.json').doc, code }, tags: ['nf'] });
    ids.push(res.body.id);
  }
  endpoints = createHttpEndpoints(t.service, { origins: () => origins, log: (line) => lines.push(line), rateLimit: { perSecond: 1e6, burst: 1e6 } });
  const front = nodeFront(endpoints, { origins: () => origins, log: (line) => lines.push(line) });
  const app = getRequestListener(endpoints.app.fetch);
  server = createServer((req, res) => {
    const took = front(req, res);
    taken.push(took);
    if (!took) void app(req, res);
  });
  // The app alone, as every request was served before the front.
  appServer = createServer((req, res) => void app(req, res));
  const ports = await Promise.all([server, appServer].map((s) => new Promise<number>((resolve) => s.listen(0, '127.0.0.1', () => resolve((s.address() as AddressInfo).port)))));
  const [one, two] = ports.map((port) => localOrigins(port));
  origins = { hosts: new Set([...one.hosts, ...two.hosts]), origins: new Set([...one.origins, ...two.origins]) };
  base = `http://127.0.0.1:${ports[0]}`;
  appBase = `http://127.0.0.1:${ports[1]}`;
});
afterAll(async () => {
  for (const s of [server, appServer]) {
    s?.closeAllConnections();
    await new Promise((resolve) => s?.close(resolve));
  }
  await t.close();
});

interface Seen {
  took: boolean;
  status: number;
  headers: Record<string, string | null>;
  body: string;
}

const HEADERS = ['content-type', 'content-length', 'content-disposition', 'x-content-type-options', 'referrer-policy', 'www-authenticate', 'retry-after', 'cache-control', 'content-security-policy', 'etag'];

/** The same request through the server (front first) and through the app alone. */
async function both(method: string, path: string, init: { headers?: Record<string, string>; body?: string } = {}): Promise<{ front: Seen; app: Seen }> {
  const headers = { authorization: `Bearer ${t.token}`, ...init.headers };
  const before = taken.length;
  const viaServer = await fetch(base + path, { method, headers, body: init.body });
  const front = await seen(viaServer, taken[before] ?? false);
  const viaApp = await fetch(appBase + path, { method, headers, body: init.body });
  return { front, app: await seen(viaApp, false) };
}

async function seen(res: Response, took: boolean): Promise<Seen> {
  return { took, status: res.status, headers: Object.fromEntries(HEADERS.map((h) => [h, res.headers.get(h)])), body: await res.text() };
}

/** A request whose target is sent exactly as written (fetch would normalise `/./`). */
function sendAsWritten(method: string, path: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const { hostname, port } = new URL(base);
    const req = request({ hostname, port, path, method, headers }, (res) => {
      res.resume();
      res.once('end', () => resolve(res.statusCode!));
    });
    req.once('error', reject);
    req.end();
  });
}

function expectSame({ front, app }: { front: Seen; app: Seen }): void {
  expect(front.status).toBe(app.status);
  expect(front.body).toBe(app.body);
  expect(front.headers).toEqual(app.headers);
}

describe('the node front', () => {
  it('takes an operation’s plain request and answers it as the app does', async () => {
    for (const path of [
      `/silo/v1/entries/${ids[0]}`,
      '/silo/v1/entries?limit=10&folder=invoices',
      '/silo/v1/entries?limit=10&limit=20&tag=nf',
      '/silo/v1/entries?limit=abc',
      '/silo/v1/entries?limit=10&sort=bogus',
      `/silo/v1/entries/${ids[1]}/related`,
      '/silo/v1/search?q=NF-2',
      '/silo/v1/search?q=spain+invoice',
      '/silo/v1/folders',
      '/silo/v1/tags',
      '/silo/v1/entries/0190c1a0-0000-7000-8000-00000000dead',
      '/silo/v1/entries/not-a-uuid',
      '/silo/v1/entries/key/nothing-here',
    ]) {
      const answer = await both('GET', path);
      expect(answer.front.took, path).toBe(true);
      expectSame(answer);
    }
  });

  it('answers refusals as the app does: no token, a bad token, a call the token may not make', async () => {
    for (const headers of [{ authorization: '' }, { authorization: 'Bearer sd_wrong' }, { authorization: 'Basic abc' }]) {
      const answer = await both('GET', '/silo/v1/folders', { headers });
      expect(answer.front.took).toBe(true);
      expect(answer.front.status).toBe(401);
      expectSame(answer);
    }
  });

  it('reads bodies as the app does: JSON, bad JSON, the wrong type, too deep, an empty one', async () => {
    const doc = loadEnvelope('es-invoice-es-es.json').doc;
    const json = { 'content-type': 'application/json' };
    const created = await both('POST', '/silo/v1/entries', { headers: json, body: JSON.stringify({ data: { ...doc, code: 'NF-BODY' }, key: 'nf-body' }) });
    expect(created.front.took).toBe(true);
    expect(created.front.status).toBe(200);
    // The app's copy is the same document under the same key: it answers with the stored entry.
    expect(JSON.parse(created.app.body).id).toBe(JSON.parse(created.front.body).id);
    for (const [headers, body] of [
      [json, '{"data": {'],
      [json, ''],
      [{ 'content-type': 'text/plain' }, '{}'],
      [json, `{"data": ${'['.repeat(300)}${']'.repeat(300)}}`],
      [json, '{"data": "nope", "tags": "x"}'],
    ] as const) {
      const answer = await both('POST', '/silo/v1/entries', { headers, body });
      expect(answer.front.took).toBe(true);
      expectSame(answer);
    }
  });

  it('keeps a number’s written text in a body it reads', async () => {
    // A document outside GOBL is stored as it came: its numbers as they were written.
    const text = '{"data": {"$schema": "https://example.com/thing", "amount": 10.50, "big": 12345678901234567890, "n": 3}}';
    const res = await fetch(`${base}/silo/v1/entries`, { method: 'POST', headers: { authorization: `Bearer ${t.token}`, 'content-type': 'application/json' }, body: text });
    expect(taken.at(-1)).toBe(true);
    const answer = await res.text();
    expect(res.status, answer).toBe(200);
    expect(answer).toContain('"amount":10.50');
    expect(answer).toContain('"big":12345678901234567890');
  });

  it('refuses a body over its cap while it streams, and closes the connection', async () => {
    const stream = new ReadableStream({
      start(controller) {
        for (let i = 0; i < 7; i++) controller.enqueue(new TextEncoder().encode(' '.repeat(1024 * 1024)));
        controller.close();
      },
    });
    const res = await fetch(`${base}/silo/v1/entries`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.token}`, 'content-type': 'application/json' },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    expect(taken.at(-1)).toBe(true);
    expect(res.status).toBe(413);
    expect(res.headers.get('connection')).toBe('close');
    expect((await res.json()).key).toBe('too-large');
  });

  it('streams a stored file as the app does', async () => {
    const put = await t.call('PUT', `/silo/v1/entries/${ids[2]}/files/${ids[2]}`, { name: 'note.txt', data: Buffer.from('hello, file').toString('base64') });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    const answer = await both('GET', `/silo/v1/entries/${ids[2]}/files/${ids[2]}`);
    expect(answer.front.took).toBe(true);
    expect(answer.front.body).toBe('hello, file');
    expectSame(answer);
  });

  it('leaves to the app what it cannot read as the app would', async () => {
    for (const [method, path, headers] of [
      ['GET', `/silo/v1/entries/${ids[0]}%20`, {}],
      ['GET', `/silo/v1/./entries/${ids[0]}`, {}],
      ['GET', `/silo/v1/search?q=NF%2D2`, {}],
      ['HEAD', '/silo/v1/folders', {}],
      ['GET', '/silo/v1/nothing', {}],
      ['GET', '/silo/v1/entries/', {}],
      ['DELETE', '/silo/v1/folders', {}],
      ['GET', '/openapi.json', {}],
      ['GET', '/silo/v1/folders', { origin: 'http://evil.example' }],
    ] as const) {
      const before = taken.length;
      const status = await sendAsWritten(method, path, { authorization: `Bearer ${t.token}`, ...headers });
      expect(taken[before], `${method} ${path}`).toBe(false);
      expect(status).toBeLessThan(500);
    }
  });

  it('logs method, path and status, never the query', async () => {
    lines.length = 0;
    await fetch(`${base}/silo/v1/search?q=secret-words`, { headers: { authorization: `Bearer ${t.token}` } });
    expect(taken.at(-1)).toBe(true);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^GET \/silo\/v1\/search 200 \d+\.\dms$/);
  });

  it('answers any list query as the app does', async () => {
    const value = fc.oneof(fc.constantFrom('10', '20', '100', '0', '-1', 'true', 'false', 'invoices', 'nf', '2024-01-01', ''), fc.stringMatching(/^[a-z0-9+_.~-]{0,12}$/));
    const name = fc.constantFrom('limit', 'folder', 'state', 'tag', 'date_from', 'date_to', 'sort', 'ascending', 'doc_uuid', 'cursor', 'q', 'x');
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('/silo/v1/entries', '/silo/v1/search', '/silo/v1/entry-sums'), fc.array(fc.tuple(name, value), { maxLength: 5 }), async (path, query) => {
        const qs = query.map(([k, v]) => `${k}=${v}`).join('&');
        const answer = await both('GET', qs ? `${path}?${qs}` : path);
        expect(answer.front.took).toBe(true);
        expectSame(answer);
      }),
      { numRuns: 60 },
    );
  });
});
