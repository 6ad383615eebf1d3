import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpServer, type RunningServer } from '../../src-main/http/server.ts';
import { isLoopbackAddress, isOwnersLocalTool } from '../../src-main/http/rate-limit.ts';
import { startTestServer, type TestServer } from './harness.ts';

/**
 * The owner's own tools on this machine are never throttled (a local batch job once
 * got 429 for most of its calls); every other token keeps its bucket, and calls
 * without a valid token keep theirs per address.
 */
let t: TestServer;
let limited: RunningServer;
beforeAll(async () => {
  t = await startTestServer();
  limited = await startHttpServer(t.service, { host: '127.0.0.1', port: 0, rateLimit: { perSecond: 1, burst: 3 }, anonymousRateLimit: { perSecond: 1, burst: 3 } });
});
afterAll(async () => {
  await limited.close();
  await t.close();
});

async function statuses(token: string, n: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const res = await fetch(`${limited.url}/silo/v1/folders`, { headers: { authorization: `Bearer ${token}` } });
    await res.arrayBuffer();
    out.push(res.status);
  }
  return out;
}

describe('rate limits and the owner’s local tools', () => {
  it('answers every call of the owner token over loopback, however fast', async () => {
    expect(new Set(await statuses(t.token, 25))).toEqual(new Set([200]));
  });

  it('keeps the bucket of a user token, and of calls with a bad token', async () => {
    const user = (await t.call('POST', '/access/v1/tokens', { name: 'a script' })).body.token;
    const got = await statuses(user, 6);
    expect(got.slice(0, 3)).toEqual([200, 200, 200]);
    expect(got.slice(3)).toEqual([429, 429, 429]);
    const bad = await statuses('sd_not-a-token', 6);
    expect(bad.slice(0, 3)).toEqual([401, 401, 401]);
    expect(bad.slice(3)).toEqual([429, 429, 429]);
  });

  it('exempts only an owner token from this machine', () => {
    for (const address of ['127.0.0.1', '127.5.6.7', '::1', '::ffff:127.0.0.1']) expect(isLoopbackAddress(address)).toBe(true);
    for (const address of ['10.0.0.2', '192.168.1.9', '::ffff:10.0.0.2', 'fe80::1', '', undefined]) expect(isLoopbackAddress(address)).toBe(false);
    expect(isOwnersLocalTool({ kind: 'owner', tokenId: 't' }, '127.0.0.1')).toBe(true);
    expect(isOwnersLocalTool({ kind: 'owner', tokenId: 't' }, '192.168.1.9')).toBe(false);
    expect(isOwnersLocalTool({ kind: 'user', tokenId: 't' }, '127.0.0.1')).toBe(false);
    expect(isOwnersLocalTool({ kind: 'app', tokenId: 't' }, '::1')).toBe(false);
    // The desktop window's caller (no token) goes through IPC, never this limiter.
    expect(isOwnersLocalTool({ kind: 'owner' }, '127.0.0.1')).toBe(false);
  });
});
