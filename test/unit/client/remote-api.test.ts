import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createClient, type Transport } from '../../../src-main/core/api/client/client.ts';
import { AnswerMismatch, parseAnswer } from '../../../src-main/core/api/client/answer-schema.ts';
import { BASE64_BYTES_PER_PART } from '../../../src-main/core/api/json-text.ts';
import { bytesOf, hashBytes, type HashedBytes } from '../../../src-main/core/files/hashed-bytes.ts';
import { isHashedBytes } from '../../../src-main/core/files/hashed-bytes-mark.ts';
import { RemoteError, RemoteTooLarge, remoteApi } from '../../../src-main/core/sync/remote-client.ts';
import { turnsDuring } from '../../support/event-loop-turns.ts';

let server: Server | undefined;
afterEach(() => server?.close());

interface Seen {
  line: string;
  auth?: string;
  body: string;
  /** the Content-Length it was sent with */
  length?: string;
}

/** A server that answers each request with the next of `answers` (status, headers, body). */
async function scripted(answers: Array<[number, Record<string, string>, string]>, seen: Seen[] = []): Promise<string> {
  let i = 0;
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      seen.push({ line: `${req.method} ${req.url}`, auth: req.headers.authorization, body, length: req.headers['content-length'] });
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

const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
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
    expect(bytesOf(blobs.blobs[0].data).bytes.byteLength).toBe(150_000);
  });

  it('reads the files of an answer decoded and hashed a part at a time, and refuses one that is not base64', async () => {
    const large = randomBytes(9 * 1024 * 1024);
    const small = randomBytes(100);
    const answer = { blobs: [{ hash: sha256(large), data: large.toString('base64') }, { hash: sha256(small), data: small.toString('base64') }], missing: [] };
    const url = await scripted([[200, {}, JSON.stringify(answer)]]);
    const { result, turns } = await turnsDuring(() => remote(url).readSyncBlobs({ body: { hashes: [sha256(large), sha256(small)] } }));
    const [file, short] = result.blobs.map((b) => b.data);
    expect(isHashedBytes(file)).toBe(true);
    expect(Buffer.from((file as HashedBytes).bytes).equals(large)).toBe(true);
    expect((file as HashedBytes).hash).toBe(sha256(large));
    // A short one is text, as the contract allows: decoded where it is kept.
    expect(short).toBe(small.toString('base64'));
    // 12 MiB of base64 decoded and hashed in parts of BYTES_PER_TURN, others let in between.
    expect(turns).toBeGreaterThanOrEqual(4);
    server!.close();

    const bad = await scripted([[200, {}, JSON.stringify({ blobs: [{ hash: sha256(large), data: `${large.toString('base64')}-` }], missing: [] })]]);
    const err = await remote(bad).readSyncBlobs({ body: { hashes: [sha256(large)] } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RemoteError);
    expect((err as RemoteError).body?.fields).toEqual({ '$.blobs[0].data': 'must be base64' });
  });

  it('parses a large answer a piece at a time, to the same value, and refuses one nested too deep', async () => {
    const changes = Array.from({ length: 3000 }, (_, i) => ({ seq: i + 1, kind: 'entry', id: `e${i}`, version: 1, origin: 'o', record: { doc: { lines: [{ n: 'x'.repeat(900) }] } } }));
    const large = { ...page, changes };
    const url = await scripted([[200, {}, JSON.stringify(large)]]);
    const { result, turns } = await turnsDuring(() => remote(url).listSyncChanges());
    expect(result).toEqual(large);
    expect(turns).toBeGreaterThanOrEqual(3);
    server!.close();

    const deep = JSON.stringify({ ...page, changes: [{ ...page.changes[0], record: { doc: JSON.parse('['.repeat(300) + ']'.repeat(300)), pad: 'x'.repeat(2_000_000) } }] });
    const refusing = await scripted([[200, {}, deep]]);
    const err = await remote(refusing).listSyncChanges().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RemoteError);
    expect((err as Error).message).toMatch(/nests objects and arrays more than 256 levels deep/);
  });

  it('sends the files of a body encoded a part at a time, with their length, and all of them again on a retry', async () => {
    const seen: Seen[] = [];
    const url = await scripted([[503, {}, '{}'], [200, {}, '{"stored":2}']], seen);
    const blobs = [randomBytes(7 * 1024 * 1024 + 1), randomBytes(10)].map((b) => ({ hash: sha256(b), data: hashBytes(b) }));
    const stringify = vi.spyOn(JSON, 'stringify');
    const { result, turns } = await turnsDuring(() => remote(url).putSyncBlobs({ body: { blobs } }));
    const longest = Math.max(...stringify.mock.results.map((r) => (typeof r.value === 'string' ? r.value.length : 0)));
    stringify.mockRestore();
    expect(result).toEqual({ stored: 2 });
    const expected = JSON.stringify({ blobs: blobs.map((b) => ({ hash: b.hash, data: Buffer.from(b.data.bytes).toString('base64') })) });
    expect(seen.map((s) => s.body === expected)).toEqual([true, true]);
    expect(seen.map((s) => s.length)).toEqual([String(expected.length), String(expected.length)]);
    // Never one string of the whole body: the file is written into the request as it is encoded.
    expect(longest).toBeLessThan(BASE64_BYTES_PER_PART);
    // Encoded in parts of BASE64_BYTES_PER_PART, each in a turn of its own, twice over.
    expect(turns).toBeGreaterThanOrEqual(2 * Math.floor((7 * 1024 * 1024) / BASE64_BYTES_PER_PART));
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
