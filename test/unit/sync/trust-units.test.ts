import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { isDue } from '../../../src-main/core/sync/controller.ts';
import { RemoteClient, RemoteTooLarge } from '../../../src-main/core/sync/remote-client.ts';
import { nestingDepth } from '../../../src-main/http/body.ts';

let server: Server | undefined;
afterEach(() => server?.close());

describe('auto-sync timing', () => {
  const min = 60_000;
  const now = Date.parse('2026-06-01T12:00:00Z');
  it('is due by the monotonic clock whatever the wall clock says', () => {
    // ran 16 minutes ago on the monotonic clock; the wall clock was set back a year meanwhile
    expect(isDue(1_000, new Date(now + 365 * 86_400_000).toISOString(), 15 * min, 1_000 + 16 * min, now)).toBe(true);
    expect(isDue(1_000, new Date(now).toISOString(), 15 * min, 1_000 + 5 * min, now)).toBe(false);
  });
  it('treats a stored last attempt in the future (clock set back since) as long ago, and none as due', () => {
    expect(isDue(undefined, new Date(now + 365 * 86_400_000).toISOString(), 15 * min, 0, now)).toBe(true);
    expect(isDue(undefined, null, 15 * min, 0, now)).toBe(true);
    expect(isDue(undefined, new Date(now - 5 * min).toISOString(), 15 * min, 0, now)).toBe(false);
    expect(isDue(undefined, new Date(now - 16 * min).toISOString(), 15 * min, 0, now)).toBe(true);
  });
});

describe('JSON nesting', () => {
  it('counts brackets outside strings only, escapes included', () => {
    expect(nestingDepth('{"a":[1,{"b":[]}]}', 100)).toBe(4);
    expect(nestingDepth('{"a":"[[[[{{{{\\"[[["}', 100)).toBe(1);
    expect(nestingDepth('[]'.repeat(10), 100)).toBe(1);
    expect(nestingDepth('['.repeat(5000), 256)).toBe(257);
  });
});

describe('answers from a remote', () => {
  it('are cut off past their cap as they stream, Content-Length or not', async () => {
    server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      let sent = 0;
      const push = () => {
        while (sent < 4 * 1024 * 1024) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', push);
        }
        res.end('{}');
      };
      push();
    });
    await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server!.address() as AddressInfo).port}`;
    const client = new RemoteClient({ baseUrl: url, token: 't', retry: { baseMs: 1, maxMs: 1, maxAttempts: 3, maxRetryAfterMs: 1, timeoutMs: 5000 }, signal: new AbortController().signal });
    await expect(client.json('GET', '/x', undefined, { maxResponseBytes: 1024 * 1024 })).rejects.toBeInstanceOf(RemoteTooLarge);
  });
});
