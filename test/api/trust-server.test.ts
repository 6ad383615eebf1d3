import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { request } from 'node:http';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ensureDefaultCompany, ensureOwnerTokenFile } from '../../src-main/core/access/bootstrap.ts';
import { DEFAULT_RETRY, worstCaseHangMs } from '../../src-main/core/sync/backoff.ts';
import { openService, type Service } from '../../src-main/core/service.ts';
import { startHttpServer, type RunningServer } from '../../src-main/http/server.ts';
import { v7 as uuidv7 } from 'uuid';
import { importEntries } from '../../src-main/core/silo/import.ts';
import { serverDatabase } from '../support/server-database.ts';
import { startServe } from './serve-process.ts';
import { connect as connectSync, invoiceDoc, putEntry, startInstance, sync, type Instance } from './sync-helpers.ts';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const mode = (path: string) => statSync(path).mode & 0o777;

async function served(opts: Parameters<typeof startHttpServer>[1] extends infer O ? Partial<O> : never = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'silodesk-server-'));
  const service = await openService(dir, { autoSync: false });
  const company = await ensureDefaultCompany(service.db);
  await ensureOwnerTokenFile(service.db, company, join(dir, 'api-token'));
  const server = await startHttpServer(service, { host: '127.0.0.1', port: 0, ...opts });
  cleanups.push(async () => {
    await server.close();
    await service.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return { dir, service, server };
}

/** A GET from a given local address (127.0.0.2 is another client on the same machine). */
function getFrom(server: RunningServer, path: string, localAddress: string, token?: string): Promise<{ status: number; retryAfter?: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port: server.port, path, localAddress, agent: false, headers: token ? { authorization: `Bearer ${token}` } : {} },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode!, retryAfter: res.headers['retry-after'] as string | undefined }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

function closedWithin(socket: Socket, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    socket.once('close', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

describe('the data dir', () => {
  it('is the user\'s alone, even when it was there before with looser modes', async () => {
    if (process.platform === 'win32') return;
    const dir = mkdtempSync(join(tmpdir(), 'silodesk-modes-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    chmodSync(dir, 0o755);
    let service: Service = await openService(dir, { autoSync: false });
    await service.close();
    // as an older version, a hand-made folder or a restored backup leaves it
    chmodSync(dir, 0o755);
    for (const f of ['files', 'backups', 'exports']) {
      mkdirSync(join(dir, f), { recursive: true });
      chmodSync(join(dir, f), 0o755);
    }
    chmodSync(join(dir, 'silodesk.db'), 0o644);
    service = await openService(dir, { autoSync: false });
    await ensureOwnerTokenFile(service.db, await ensureDefaultCompany(service.db), join(dir, 'api-token'));
    expect(mode(dir)).toBe(0o700);
    for (const f of ['files', 'keys', 'backups', 'exports']) expect(mode(join(dir, f)), f).toBe(0o700);
    expect(mode(join(dir, 'silodesk.db'))).toBe(0o600);
    expect(mode(join(dir, 'silodesk.db-wal'))).toBe(0o600);
    expect(mode(join(dir, 'api-token'))).toBe(0o600);
    await service.close();
  });
});

describe('the HTTP server', () => {
  it('limits calls without a valid token per client address; other addresses and valid tokens are unaffected', async () => {
    const { server, dir } = await served({ anonymousRateLimit: { perSecond: 1, burst: 5 } });
    const token = (await import('node:fs')).readFileSync(join(dir, 'api-token'), 'utf8').trim();
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await getFrom(server, '/silo/v1/entries', '127.0.0.1', 'sd_guessing')).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    // public calls from that address share its bucket
    const ping = await getFrom(server, '/utils/v1/ping', '127.0.0.1');
    expect(ping.status).toBe(429);
    expect(Number(ping.retryAfter)).toBeGreaterThan(0);
    // another client is not locked out, nor is a caller with a valid token
    expect((await getFrom(server, '/utils/v1/ping', '127.0.0.2')).status).toBe(200);
    expect((await getFrom(server, '/silo/v1/entries', '127.0.0.1', token)).status).toBe(200);
  });

  it('closes sockets that stay idle: before any request, and after a response', async () => {
    const { server } = await served({ timeouts: { idleMs: 300, keepAliveMs: 200 } });
    // The server listens before its API has loaded (a cold start); the loading holds the event loop, and
    // with it every timer, for a while on a busy machine. Once it has answered, timers run on time.
    expect((await fetch(`${server.url}/utils/v1/ping`)).status).toBe(200);
    // Without the idle timeout none of these would ever close; 5 s leaves room for a busy machine.
    const silent = connect(server.port, '127.0.0.1');
    expect(await closedWithin(silent, 5_000)).toBe(true);
    const trickle = connect(server.port, '127.0.0.1', () => trickle.write('GET /utils/v1/ping HTTP/1.1\r\nHost: 127.0.0.1\r\n'));
    expect(await closedWithin(trickle, 5_000)).toBe(true);
    const kept = connect(server.port, '127.0.0.1', () => kept.write(`GET /utils/v1/ping HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\n\r\n`));
    const answered = new Promise<string>((resolve) => kept.once('data', (d) => resolve(String(d))));
    expect(await answered).toMatch(/^HTTP\/1.1 200/);
    expect(await closedWithin(kept, 5_000)).toBe(true);
  });

  it('answers a body nested thousands deep with 400, not 500', async () => {
    const { server, dir } = await served();
    const token = (await import('node:fs')).readFileSync(join(dir, 'api-token'), 'utf8').trim();
    // objects 4,500 deep inside a document: walked recursively, they ran the stack out (500)
    const deep = `${'{"a":'.repeat(4500)}1${'}'.repeat(4500)}`;
    const doc = `{"$schema":"https://gobl.org/draft-0/bill/invoice","x":${deep}}`;
    for (const [path, body] of [['/silo/v1/entries', `{"data":${doc}}`], ['/silo/v1/import', `{"entries":[{"data":${doc}}]}`]]) {
      const res = await fetch(server.url + path, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body });
      expect(res.status, path).toBe(400);
      expect((await res.json()).message).toMatch(/nests .* levels deep/);
    }
    // brackets inside strings do not count
    const res = await fetch(`${server.url}/silo/v1/entries`, {
      method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ data: { note: '['.repeat(5000) } }),
    });
    expect(res.status).not.toBe(400);
  });
});

describe('sync against clocks and stuck remotes', () => {
  let pairOpen: Instance[] = [];
  afterEach(async () => {
    await Promise.all(pairOpen.map((i) => i.close()));
    pairOpen = [];
  });

  it('still syncs by itself after the clock was set back (the last attempt seems to lie in the future)', async () => {
    const [local, remote] = await Promise.all([startInstance({ sync: { tickMs: 20 } }), startInstance({ remote: true })]);
    pairOpen.push(local, remote);
    await connectSync(local, remote);
    expect((await local.call('PUT', '/sync/v1/settings', { remote_url: remote.url, interval_minutes: 15 })).status).toBe(200);
    await putEntry(local);
    // synced when the clock said next year; the clock was corrected since
    await local.service.db.sqlRun('UPDATE sync_config SET last_attempt_at = ?', [new Date(Date.now() + 365 * 86_400_000).toISOString()]);
    local.service.sync.start();
    const until = Date.now() + 5_000;
    while ((await local.service.sync.status(local.companyKey)).pending > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    expect(await local.service.sync.status(local.companyKey)).toMatchObject({ pending: 0 });
    await local.service.sync.stop();
    await sync(local);
  });

  it('ends a sync with a remote that accepts and never answers with a clear timeout error, in bounded time', async () => {
    // The default policy: a stuck remote costs two timeouts of a minute, not eight of two (16 minutes).
    expect(worstCaseHangMs(DEFAULT_RETRY)).toBeLessThanOrEqual(3 * 60_000);
    const sockets: Socket[] = [];
    const stuck: Server = createServer((s) => void sockets.push(s));
    await new Promise<void>((r) => stuck.listen(0, '127.0.0.1', r));
    cleanups.push(() => {
      for (const s of sockets) s.destroy();
      return new Promise<void>((r) => stuck.close(() => r()));
    });
    const local = await startInstance({ sync: { retry: { baseMs: 20, maxMs: 50, maxAttempts: 8, maxRetryAfterMs: 1000, timeoutMs: 300 } } });
    pairOpen.push(local);
    const port = (stuck.address() as { port: number }).port;
    expect((await local.call('PUT', '/sync/v1/settings', { remote_url: `http://127.0.0.1:${port}`, token: 'sd_x', interval_minutes: 0 })).status).toBe(200);
    const started = Date.now();
    const status = await local.service.sync.syncNow(local.companyKey);
    const took = Date.now() - started;
    expect(took).toBeLessThan(8 * 300);
    expect(status).toMatchObject({ state: 'error', running: false, last_error: { kind: 'timeout' } });
    expect(status.last_error!.message).toMatch(/sent no answer within 0\.3 s, 2 times/);
  });
});

describe('long writes in slices', () => {
  it('a remote taking a 500-record push still answers other requests meanwhile', async () => {
    const remoteDir = mkdtempSync(join(tmpdir(), 'silodesk-slices-'));
    // the remote's records on PostgreSQL in the postgres project (`--db`)
    const remoteDb = await serverDatabase();
    const remote = await startServe(remoteDir, ['--sync-interval', '0', ...(remoteDb.databaseUrl ? ['--db', remoteDb.databaseUrl] : [])]);
    cleanups.push(async () => {
      await remote.kill();
      await remoteDb.drop();
      rmSync(remoteDir, { recursive: true, force: true });
    });
    const local = await startInstance({ sync: { batchSize: 500, batchBytes: 64 * 1024 * 1024 } });
    cleanups.push(() => local.close());
    await connectSync(local, { url: remote.url, token: remote.token } as Instance);
    const items = Array.from({ length: 500 }, (_, i) => ({ id: uuidv7(), data: invoiceDoc(`SLICE-${i}`) }));
    expect((await importEntries(local.ctx, items)).failed).toBe(0);

    let slowest = 0;
    let stop = false;
    const pinger = (async () => {
      while (!stop) {
        const started = performance.now();
        await fetch(`${remote.url}/utils/v1/ping`);
        slowest = Math.max(slowest, performance.now() - started);
        await new Promise((r) => setTimeout(r, 5));
      }
    })();
    const status = await sync(local);
    stop = true;
    await pinger;
    expect(status.progress).toMatchObject({ pushed: 500 });
    expect(slowest).toBeLessThan(400);
  }, 60_000);
});
