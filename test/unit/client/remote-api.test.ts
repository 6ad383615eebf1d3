import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createClient, type Transport } from '../../../src-main/core/api/client/client.ts';
import { AnswerMismatch, parseAnswer } from '../../../src-main/core/api/client/answer-schema.ts';
import { RemoteError, RemoteTooLarge, remoteApi } from '../../../src-main/core/sync/remote-client.ts';

let server: Server | undefined;
afterEach(() => server?.close());

interface Seen {
  line: string;
  auth?: string;
  body: string;
}

/** A server that answers each request with the next of `answers` (status, headers, body). */
async function scripted(answers: Array<[number, Record<string, string>, string]>, seen: Seen[] = []): Promise<string> {
  let i = 0;
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      seen.push({ line: `${req.method} ${req.url}`, auth: req.headers.authorization, body });
      const [status, headers, text] = answers[Math.min(i++, answers.length - 1)];
      res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(text);
    });
  });
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server!.address() as AddressInfo).port}`;
}

const retry = { baseMs: 1, maxMs: 5, maxAttempts: 4, maxRetryAfterMs: 10_000, timeoutMs: 2000 };
const remote = (baseUrl: string, sleeps: number[] = []) =>
  remoteApi({ baseUrl, token: 'sd_secret', retry, signal: new AbortController().signal, sleep: async (ms) => void sleeps.push(ms) });

const ORIGIN = '0190a4c2-1234-7000-8000-00000000abcd';
const page = { instance_id: 'i', company_id: 'c', changes: [{ seq: 1, kind: 'entry', id: 'e', version: 2, origin: 'o', record: { any: 'thing' } }], next_cursor: 'n', has_more: false };

describe("sync's typed client for its peer", () => {
  it('builds the request from the contract and answers what the output schema parses', async () => {
    const seen: Seen[] = [];
    const url = await scripted([[200, {}, JSON.stringify({ ...page, extra: 'dropped' })]], seen);
    const answer = await remote(url).listSyncChanges({ query: { limit: 50, cursor: 'abc', exclude_origin: ORIGIN } });
    expect(seen).toEqual([{ line: `GET /sync/v1/changes?limit=50&cursor=abc&exclude_origin=${ORIGIN}`, auth: 'Bearer sd_secret', body: '' }]);
    expect(answer).toEqual(page); // the unknown member is gone, the record (unknown in the contract) kept whole
  });

  it('sends bodies as JSON with the contract method, and encodes path parameters', async () => {
    const seen: Seen[] = [];
    const url = await scripted([[200, {}, JSON.stringify({ seq: 1, kind: 'meta', id: 'a/b', version: 1, origin: 'o' })], [200, {}, '{"missing":[]}']], seen);
    await remote(url).getSyncRecord({ params: { kind: 'meta', id: 'a/b?c#d' } });
    await remote(url).findMissingSyncBlobs({ body: { hashes: ['ab'.repeat(32)] } });
    expect(seen.map((s) => s.line)).toEqual(['GET /sync/v1/records/meta/a%2Fb%3Fc%23d', 'POST /sync/v1/blobs/missing']);
    expect(JSON.parse(seen[1].body)).toEqual({ hashes: ['ab'.repeat(32)] });
  });

  it('refuses an answer that does not match the contract, by path, without retrying and without echoing it', async () => {
    const seen: Seen[] = [];
    const url = await scripted([[200, {}, JSON.stringify({ ...page, has_more: 'yes', changes: [{ seq: 'one', secret: 'sd_leak' }] })]], seen);
    const err = await remote(url).listSyncChanges().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RemoteError);
    expect((err as RemoteError).status).toBe(200);
    expect((err as RemoteError).body?.fields).toMatchObject({ '$.has_more': expect.any(String), '$.changes[0].seq': expect.any(String) });
    expect((err as Error).message).toMatch(/listSyncChanges does not match its contract/);
    expect((err as Error).message).not.toContain('sd_leak');
    expect(seen).toHaveLength(1);
  });

  it('sends the headers the operation declares, and no other a caller slips in', async () => {
    const heard: Array<Record<string, unknown>> = [];
    server = createServer((req, res) => {
      heard.push({ ...req.headers });
      req.resume();
      req.on('end', () => res.writeHead(500).end('{}'));
    });
    await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server!.address() as AddressInfo).port}`;
    const api = remoteApi({ baseUrl: url, token: 'sd_secret', retry: { ...retry, maxAttempts: 1 }, signal: new AbortController().signal });
    await api
      .patchEntry({ params: { id: ORIGIN }, headers: { 'if-match': '"3"', authorization: 'Bearer stolen', host: 'evil' } as never, body: { folder: 'x' } })
      .catch(() => undefined);
    expect(heard[0]).toMatchObject({ 'if-match': '"3"', authorization: 'Bearer sd_secret' });
    expect(heard[0].host).not.toBe('evil');
  });

  it('keeps the hardened transport: Retry-After, no retry of a 4xx, size caps per call', async () => {
    const sleeps: number[] = [];
    const url = await scripted([[429, { 'retry-after': '3' }, '{}'], [503, {}, '{}'], [200, {}, '{"ping":"pong"}']]);
    expect(await remote(url, sleeps).ping()).toEqual({ ping: 'pong' });
    expect(sleeps[0]).toBe(3000);
    server!.close();

    const seen: Seen[] = [];
    const refusing = await scripted([[404, {}, '{"key":"not-found","code":"not-found","message":"series x not found"}']], seen);
    const err = await remote(refusing).getSeries({ params: { id: ORIGIN } }).catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 404, body: { key: 'not-found' } });
    expect(seen).toHaveLength(1);
    server!.close();

    const big = JSON.stringify({ blobs: [{ hash: 'h', data: 'A'.repeat(200_000) }], missing: [] });
    const large = await scripted([[200, {}, big]]);
    await expect(remote(large).readSyncBlobs({ body: { hashes: ['ab'.repeat(32)] } }, { maxResponseBytes: 100_000 })).rejects.toBeInstanceOf(RemoteTooLarge);
    const blobs = await remote(large).readSyncBlobs({ body: { hashes: ['ab'.repeat(32)] } }, { maxResponseBytes: 300_000 });
    expect(blobs.blobs[0].data).toHaveLength(200_000);
  });
});

describe('the typed client', () => {
  it('hands each call its operation name, input and per-call options', async () => {
    const calls: unknown[] = [];
    const transport: Transport<{ tag: string }> = {
      call: async (name, input, options) => {
        calls.push([name, input, options]);
        return null;
      },
    };
    const api = createClient(transport);
    await api.listFolders();
    await api.getEntry({ params: { id: ORIGIN } }, { tag: 'x' });
    expect(calls).toEqual([
      ['listFolders', {}, undefined],
      ['getEntry', { params: { id: ORIGIN } }, { tag: 'x' }],
    ]);
  });

  it('parses an answer with its output schema, and names what does not match by path', () => {
    expect(parseAnswer('ping', { ping: 'pong', more: 1 })).toEqual({ ping: 'pong' });
    expect(() => parseAnswer('ping', { ping: 7 })).toThrow(AnswerMismatch);
    const err = (() => {
      try {
        return parseAnswer('listFolders', { list: [{ nope: true }] });
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(AnswerMismatch);
    expect(Object.keys((err as AnswerMismatch).fields)[0]).toMatch(/^\$\.list\[0\]/);
  });
});
