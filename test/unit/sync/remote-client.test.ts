import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { RemoteClient, RemoteError, RemoteUnreachable, SyncCancelled } from '../../../src-main/core/sync/remote-client.ts';

let server: Server | undefined;
afterEach(() => server?.close());

/** A server that answers each request with the next of `answers` (status, headers, body). */
async function scripted(answers: Array<[number, Record<string, string>, string]>, seen: string[] = []): Promise<string> {
  let i = 0;
  server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url} ${req.headers.authorization}`);
    const [status, headers, body] = answers[Math.min(i++, answers.length - 1)];
    res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(body);
  });
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server!.address() as AddressInfo).port}`;
}

const retry = { baseMs: 1, maxMs: 5, maxAttempts: 4, maxRetryAfterMs: 10_000, timeoutMs: 2000 };

function client(baseUrl: string, sleeps: number[] = [], signal = new AbortController().signal, maxAttempts = 4) {
  return new RemoteClient({
    baseUrl,
    token: 'sd_secret',
    retry: { ...retry, maxAttempts },
    signal,
    sleep: async (ms) => void sleeps.push(ms),
  });
}

describe('the remote client', () => {
  it('retries 5xx and 429 (waiting as Retry-After says), then answers the JSON', async () => {
    const seen: string[] = [];
    const url = await scripted([[503, {}, '{}'], [429, { 'retry-after': '2' }, '{}'], [200, {}, '{"ok":true}']], seen);
    const sleeps: number[] = [];
    expect(await client(url, sleeps).json('POST', '/sync/v1/records', { a: 1 })).toEqual({ ok: true });
    expect(seen).toEqual(Array(3).fill('POST /sync/v1/records Bearer sd_secret'));
    expect(sleeps[1]).toBe(2000);
  });

  it('does not retry a refusal (4xx), and names the remote error without the token', async () => {
    const url = await scripted([[422, {}, '{"key":"validation","code":"validation","message":"bad record"}']]);
    const err: any = await client(url).json('GET', '/x').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RemoteError);
    expect(err.status).toBe(422);
    expect(err.body.key).toBe('validation');
    expect(err.message).toContain('bad record');
    expect(err.message).not.toContain('sd_secret');
  });

  it('gives up after its tries as unreachable, network errors included', async () => {
    const url = await scripted([[500, {}, '{}']]);
    await expect(client(url).json('GET', '/x')).rejects.toBeInstanceOf(RemoteUnreachable);
    const closed = await new Promise<string>((resolve) => {
      const s = createServer();
      s.listen(0, '127.0.0.1', () => {
        const port = (s.address() as AddressInfo).port;
        s.close(() => resolve(`http://127.0.0.1:${port}`));
      });
    });
    const err: any = await client(closed, [], undefined, 2).json('GET', '/x').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RemoteUnreachable);
    expect(err.message).toMatch(/ECONNREFUSED/);
  });

  it('stops at once when cancelled', async () => {
    const url = await scripted([[503, {}, '{}']]);
    const abort = new AbortController();
    const c = new RemoteClient({ baseUrl: url, token: 't', retry: { ...retry, baseMs: 10_000, maxMs: 10_000 }, signal: abort.signal });
    const pending = c.json('GET', '/x');
    setTimeout(() => abort.abort(), 50);
    await expect(pending).rejects.toBeInstanceOf(SyncCancelled);
  });
});
