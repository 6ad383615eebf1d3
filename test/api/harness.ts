import { setImmediate } from 'node:timers/promises';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureDefaultCompany, ensureOwnerTokenFile } from '../../src-main/core/access/bootstrap.ts';
import { createClient, type ApiClient } from '../../src-main/core/api/client/client.ts';
import { httpTransport } from '../../src-main/core/api/client/http-transport.ts';
import { openService, type Service } from '../../src-main/core/service.ts';
import { startHttpServer, type RunningServer } from '../../src-main/http/server.ts';
import { serverDatabase } from '../support/server-database.ts';
import { checkedFetch, OpenApiCheck } from './openapi-check.ts';

export interface TestServer {
  url: string;
  port: number;
  token: string;
  dataDir: string;
  service: Service;
  server: RunningServer;
  /** the check every answer of `call`, `api` and `fetch` passes (its `checked` counts them) */
  openapi: OpenApiCheck;
  /** fetch, its answers held to /openapi.json like those of `call`: for bodies `call` does not send (forms, raw bytes) */
  fetch: typeof fetch;
  /** the typed client (the renderer's and sync's) with the owner token: errors throw ApiClientError */
  api: ApiClient;
  /** fetch with the owner token, JSON in and out: for raw requests (bad input, headers, status codes) */
  call(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<{ status: number; body: any; headers: Headers }>;
  close(): Promise<void>;
}

/** A real service on a temp data dir, served over HTTP on 127.0.0.1 with a random port. */
export async function startTestServer(config: Parameters<typeof openService>[1] = {}): Promise<TestServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'silodesk-api-'));
  const database = await serverDatabase();
  const service = await openService(dataDir, { runner: { retryBaseMs: 20 }, databaseUrl: database.databaseUrl, ...config });
  const company = await ensureDefaultCompany(service.db);
  await ensureOwnerTokenFile(service.db, company, join(dataDir, 'api-token'));
  const token = readFileSync(join(dataDir, 'api-token'), 'utf8').trim();
  const server = await startHttpServer(service, {
    host: '127.0.0.1',
    port: 0,
    // Only internal errors: a test that hits one should show why.
    log: (line) => line.startsWith('internal error') && console.error(line),
  });
  const url = server.url;
  // Every answer a test receives is held to the service's own /openapi.json.
  const openapi = new OpenApiCheck(await (await fetch(`${url}/openapi.json`)).json());
  const checked = checkedFetch(() => openapi);

  const call: TestServer['call'] = async (method, path, body, headers = {}) => {
    const res = await checked(url + path, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // binary or empty: keep the text
    }
    return { status: res.status, body: parsed as any, headers: res.headers };
  };

  return {
    url,
    port: server.port,
    token,
    api: typedClient(url, token, checked),
    openapi,
    fetch: checked,
    dataDir,
    service,
    server,
    call,
    async close() {
      await server.close();
      await service.close();
      await database.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * The typed client over HTTP to `url`, as `token`: paths and methods from the contract,
 * never spelled here. Every answer is held to the service's /openapi.json (the served
 * document is fetched once per base URL), unless a fetch is given.
 */
export function typedClient(url: string, token: string, fetcher?: typeof fetch): ApiClient {
  return createClient(httpTransport({ baseUrl: url, token: () => token, fetch: fetcher ?? checkedFetchFor(url) }));
}

const checks = new Map<string, Promise<OpenApiCheck>>();

/** A fetch that checks answers against the /openapi.json served at `url`. */
export function checkedFetchFor(url: string): typeof fetch {
  let check: OpenApiCheck | undefined;
  const inner = checkedFetch(() => check);
  return async (input, init) => {
    if (!check) {
      let pending = checks.get(url);
      if (!pending) {
        pending = fetch(`${url}/openapi.json`).then(async (r) => new OpenApiCheck(await r.json()));
        checks.set(url, pending);
        pending.catch(() => checks.delete(url));
      }
      check = await pending;
    }
    return inner(input, init);
  };
}

/** Another company, opened by the install's owner: its id and its owner token. */
export async function openCompany(
  t: { call(method: string, path: string, body?: unknown, ...rest: any[]): Promise<{ status: number; body: any }> },
  name = 'Client B',
): Promise<{ id: string; owner: string }> {
  const res = await t.call('POST', '/access/v1/companies', { name });
  if (res.status !== 200) throw new Error(`opening company ${name}: ${res.status} ${JSON.stringify(res.body)}`);
  return { id: res.body.id, owner: res.body.owner_token };
}

/**
 * Starts `calls` while the database is busy with another transaction, so they queue and then
 * take turns statement by statement, as requests at once do on PostgreSQL (on SQLite a call
 * that awaits only the database otherwise runs to its end before the next one starts).
 */
export async function atOnce<T>(service: Service, calls: Array<() => Promise<T>>): Promise<T[]> {
  let release!: () => void;
  const holding = service.db.tx(() => new Promise<void>((resolve) => (release = resolve)), { origin: 'local' });
  const running = Promise.allSettled(calls.map((call) => call()));
  // One turn of the event loop: every call is waiting for the connection now (on PostgreSQL, the transaction has begun too).
  await setImmediate();
  while (!release) await setImmediate();
  release();
  await holding;
  return (await running).map((r) => {
    if (r.status === 'rejected') throw r.reason;
    return r.value;
  });
}
