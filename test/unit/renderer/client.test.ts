import { describe, expect, it } from 'vitest';
import { operations } from '../../../src-main/core/api/contract/index.ts';
import type { IpcAnswer } from '../../../src-main/ipc/channel.ts';
import { createClient } from '../../../src-renderer/src/api/client.ts';
import { ApiClientError, httpTransport, ipcTransport } from '../../../src-renderer/src/api/transport.ts';

const ID = '0190a4c2-1234-7000-8000-00000000abcd';

interface Seen {
  url: string;
  method?: string;
  headers: Record<string, string>;
  body?: string;
}

/** A fetch that records each request and answers with the given status and body. */
function fakeFetch(status: number, body: unknown, contentType = 'application/json') {
  const seen: Seen[] = [];
  const fetch = (async (url: string, init: RequestInit = {}) => {
    seen.push({ url, method: init.method, headers: { ...(init.headers as Record<string, string>) }, body: init.body as string | undefined });
    const payload = body instanceof Uint8Array ? body : JSON.stringify(body);
    return new Response(payload as BodyInit, { status, headers: { 'Content-Type': contentType } });
  }) as typeof globalThis.fetch;
  return { fetch, seen };
}

const httpClient = (fetch: typeof globalThis.fetch, token: { value?: string } = { value: 'sd_secret' }) =>
  createClient(httpTransport({ token: () => token.value, fetch }));

describe('typed client over HTTP', () => {
  it('has one method per operation of the registry', () => {
    const api = httpClient(fakeFetch(200, {}).fetch);
    expect(Object.keys(api).sort()).toEqual(Object.keys(operations).sort());
    for (const name of Object.keys(operations)) expect(typeof api[name as keyof typeof api]).toBe('function');
  });

  it('getEntry calls GET /silo/v1/entries/<id> with the bearer token', async () => {
    const { fetch, seen } = fakeFetch(200, { id: ID, state: 'draft' });
    const entry = await httpClient(fetch).getEntry({ params: { id: ID } });
    expect(entry).toEqual({ id: ID, state: 'draft' });
    expect(seen).toHaveLength(1);
    expect(seen[0].method).toBe('GET');
    expect(seen[0].url).toBe(`/silo/v1/entries/${ID}`);
    expect(seen[0].headers.Authorization).toBe('Bearer sd_secret');
    expect(seen[0].body).toBeUndefined();
  });

  it('encodes path parameters so they cannot change the path', async () => {
    const { fetch, seen } = fakeFetch(200, {});
    await httpClient(fetch).getEntryByKey({ params: { key: '../a/b?c#d' } });
    expect(seen[0].url).toBe('/silo/v1/entries/key/..%2Fa%2Fb%3Fc%23d');
  });

  it('puts the query in the search string and leaves out what is not set', async () => {
    const { fetch, seen } = fakeFetch(200, { list: [], limit: 20 });
    await httpClient(fetch).listEntries({ query: { limit: 20, folder: 'Q1 & Q2', cursor: undefined, ascending: true } });
    const url = new URL(seen[0].url, 'http://x');
    expect(url.pathname).toBe('/silo/v1/entries');
    expect(Object.fromEntries(url.searchParams)).toEqual({ limit: '20', folder: 'Q1 & Q2', ascending: 'true' });
  });

  it('calls without an input when the operation needs none', async () => {
    const { fetch, seen } = fakeFetch(200, { list: [] });
    await httpClient(fetch).listFolders();
    await httpClient(fetch).listEntries();
    expect(seen.map((s) => s.url)).toEqual(['/silo/v1/folders', '/silo/v1/entries']);
  });

  it('sends the body as JSON with the contract method', async () => {
    const { fetch, seen } = fakeFetch(200, { id: ID });
    await httpClient(fetch).putEntry({ params: { id: ID }, body: { data: { a: 1 }, folder: 'Inbox' } });
    expect(seen[0].method).toBe('PUT');
    expect(seen[0].url).toBe(`/silo/v1/entries/${ID}`);
    expect(seen[0].headers['Content-Type']).toBe('application/json');
    expect(JSON.parse(seen[0].body!)).toEqual({ data: { a: 1 }, folder: 'Inbox' });
  });

  it('sends no Authorization header without a token', async () => {
    const { fetch, seen } = fakeFetch(200, { ping: 'pong' });
    await httpClient(fetch, {}).ping();
    expect(seen[0].url).toBe('/utils/v1/ping');
    expect(seen[0].headers.Authorization).toBeUndefined();
  });

  it('turns an error body into an ApiClientError with its key, fields and status', async () => {
    const body = { key: 'validation', code: 'validation', message: 'request body is not valid', fields: { '$.data': 'required' } };
    const { fetch } = fakeFetch(422, body);
    const error = await httpClient(fetch).createEntry({ body: { data: {} } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiClientError);
    expect(error).toMatchObject({ key: 'validation', code: 'validation', status: 422, message: 'request body is not valid', fields: { '$.data': 'required' } });
  });

  it('keys a non-JSON error answer by its status', async () => {
    const { fetch } = fakeFetch(401, 'nope', 'text/plain');
    const error = await httpClient(fetch).listFolders().catch((e: unknown) => e);
    expect(error).toMatchObject({ key: 'unauthorized', status: 401 });
  });

  it('reports an unreachable service as unavailable', async () => {
    const fetch = (async () => {
      throw new TypeError('fetch failed');
    }) as typeof globalThis.fetch;
    const error = await httpClient(fetch).ping().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiClientError);
    expect(error).toMatchObject({ key: 'unavailable', status: 0 });
  });

  it('refuses to call with a path parameter missing', async () => {
    const { fetch, seen } = fakeFetch(200, {});
    const error = await httpClient(fetch)
      .getEntry({ params: {} as { id: string } })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ key: 'bad-request' });
    expect(seen).toHaveLength(0);
  });

  it('answers binary operations with a Blob', async () => {
    const bytes = new Uint8Array([37, 80, 68, 70]);
    const { fetch, seen } = fakeFetch(200, bytes, 'application/pdf');
    const file = await httpClient(fetch).getAttachment({ params: { entry_id: ID, id: 'scan' } });
    expect(seen[0].url).toBe(`/silo/v1/entries/${ID}/files/scan`);
    expect(file).toBeInstanceOf(Blob);
    expect(new Uint8Array(await (file as Blob).arrayBuffer())).toEqual(bytes);
  });
});

describe('typed client over IPC', () => {
  function fakeBridge(answer: IpcAnswer) {
    const calls: Array<{ name: string; input: unknown }> = [];
    return {
      calls,
      bridge: {
        call: async (name: string, input: unknown) => {
          calls.push({ name, input });
          return answer;
        },
      },
    };
  }

  it('sends the operation name and input, and returns the data', async () => {
    const { bridge, calls } = fakeBridge({ ok: true, data: { list: [], limit: 5 } });
    const page = await createClient(ipcTransport(bridge)).listEntries({ query: { limit: 5 } });
    expect(page).toEqual({ list: [], limit: 5 });
    expect(calls).toEqual([{ name: 'listEntries', input: { query: { limit: 5 } } }]);
  });

  it('throws an error answer as an ApiClientError with the status of its key', async () => {
    const { bridge } = fakeBridge({ ok: false, error: { key: 'not-found', code: 'not-found', message: 'entry not found' } });
    const error = await createClient(ipcTransport(bridge)).getEntry({ params: { id: ID } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiClientError);
    expect(error).toMatchObject({ key: 'not-found', status: 404, message: 'entry not found' });
  });
});

// Compile-time checks (run by `npm run typecheck`): inputs and outputs follow each contract.
export async function typeChecks(api: ReturnType<typeof createClient>) {
  const page = await api.listEntries({ query: { limit: 20 } });
  const cursor: string | undefined = page.next_cursor;
  const entry = await api.getEntry({ params: { id: ID } });
  const state: string = entry.state;
  // @ts-expect-error getEntry needs its id
  await api.getEntry();
  // @ts-expect-error params of getEntry have no `key`
  await api.getEntry({ params: { key: 'x' } });
  // @ts-expect-error listFolders takes no body
  await api.listFolders({ body: {} });
  // @ts-expect-error no such operation
  await api.dropEverything();
  // @ts-expect-error the output has no such field
  void page.total_count;
  return [cursor, state];
}
