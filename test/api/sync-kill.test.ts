import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, describe, expect, it } from 'vitest';
import { asCompanyKey } from '../../src-main/core/access/company-key.ts';
import { BlobStore } from '../../src-main/core/files/blob-store.ts';
import { hashBytes } from '../../src-main/core/files/hashed-bytes.ts';
import { storeAttachment } from '../../src-main/core/silo/attachments.ts';
import { importEntries } from '../../src-main/core/silo/import.ts';
import { startServe, type ServeProcess } from './serve-process.ts';
import { pgDb } from '../../src-main/core/db/pg/pg-db.ts';
import { serverDatabase } from '../support/server-database.ts';
import { connect, invoiceDoc, snapshot, snapshotFrom, snapshotOf, startInstance, type Instance } from './sync-helpers.ts';

const dirs: string[] = [];
const children: ServeProcess[] = [];
const instances: Instance[] = [];
const databases: Array<{ drop(): Promise<void> }> = [];
afterAll(async () => {
  for (const c of children) await c.kill();
  await Promise.all(instances.map((i) => i.close()));
  for (const d of databases) await d.drop();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const tempDir = (name: string) => {
  const dir = mkdtempSync(join(tmpdir(), `silodesk-${name}-`));
  dirs.push(dir);
  return dir;
};

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  await new Promise((r) => server.close(r));
  return port;
}

/** What a serve child process holds, read from its database once it has stopped. */
async function childSnapshot(dataDir: string) {
  const db = new Database(join(dataDir, 'silodesk.db'), { readonly: true });
  try {
    const companyKey = asCompanyKey((db.prepare('SELECT id FROM companies').get() as { id: string }).id);
    const blobs = new BlobStore(join(dataDir, 'files'));
    const pending = (db.prepare(
      `SELECT count(*) AS n FROM sync_changes WHERE origin = 'local' AND (synced_version IS NULL OR version > synced_version)`,
    ).get() as { n: number }).n;
    const conflicts = (db.prepare('SELECT count(*) AS n FROM sync_conflicts').get() as { n: number }).n;
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    return { snap: await snapshotOf(db, companyKey, (h) => blobs.pathOf(h)), pending, conflicts };
  } finally {
    db.close();
  }
}

/** The same, for a serve child process that kept its records on PostgreSQL. */
async function pgChildSnapshot(dataDir: string, url: string) {
  const db = pgDb(url, { max: 1 });
  try {
    const companyKey = asCompanyKey((await db.sqlFirst<{ id: string }>('SELECT id FROM companies'))!.id);
    const blobs = new BlobStore(join(dataDir, 'files'));
    return { snap: await snapshotFrom(db, companyKey, (h) => blobs.pathOf(h)) };
  } finally {
    await db.close();
  }
}

async function seed(t: Instance, n: number, prefix: string) {
  const items = Array.from({ length: n }, (_, i) => ({ id: uuidv7(), data: invoiceDoc(`${prefix}-${i}`) }));
  expect((await importEntries(t.ctx, items)).failed).toBe(0);
  for (const item of items) await storeAttachment(t.ctx, item.id, { id: 'scan', name: 'scan.pdf' }, hashBytes(randomBytes(1500)));
}

async function waitFor<T>(what: string, poll: () => Promise<T>, ok: (v: T) => boolean, ms = 60_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = await poll();
    if (ok(v)) return v;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe('sync survives SIGKILL', () => {
  it('of the local side mid-push and again mid-pull: after restarts, nothing lost and nothing doubled', async () => {
    const remote = await startInstance({ remote: true });
    instances.push(remote);
    await seed(remote, 800, 'R');
    const localDir = tempDir('kill-local');
    const tokenFile = join(tempDir('token'), 'remote-token');
    writeFileSync(tokenFile, remote.token, { mode: 0o600 });
    const args = ['--remote', remote.url, '--remote-token-file', tokenFile, '--sync-interval', '0'];

    let local = await startServe(localDir, args);
    children.push(local);
    // the local side has its own work to push: 1,500 entries
    for (let part = 0; part < 3; part++) {
      const entries = Array.from({ length: 500 }, (_, i) => ({ id: uuidv7(), data: invoiceDoc(`L-${part}-${i}`) }));
      const res = await local.call('POST', '/silo/v1/import', { entries });
      expect(res.body.created).toBe(500);
    }

    // ── kill during the push
    expect((await local.call('POST', '/sync/v1/run')).status).toBe(200);
    const atPushKill = await waitFor('a push under way', () => local.call('GET', '/sync/v1/status'), (r) => r.body.progress?.phase === 'push' && r.body.progress.pushed > 0);
    await local.kill('SIGKILL');
    const pushedBefore = (await remote.service.db.sqlFirst<{ n: number }>(`SELECT count(*) AS n FROM entries`))!;
    expect(pushedBefore.n - 800).toBeGreaterThan(0);
    expect(pushedBefore.n - 800).toBeLessThan(1500);
    expect(atPushKill.body.progress.pushed).toBeLessThan(1500);

    // ── restart, sync again, kill during the pull
    local = await startServe(localDir, args);
    children.push(local);
    expect((await local.call('POST', '/sync/v1/run')).status).toBe(200);
    await waitFor('a pull under way', () => local.call('GET', '/sync/v1/status'), (r) => r.body.progress?.phase === 'pull' && r.body.progress.pulled > 0);
    await local.kill('SIGKILL');
    const partial = new Database(join(localDir, 'silodesk.db'), { readonly: true });
    const pulledBefore = (partial.prepare('SELECT count(*) AS n FROM entries').get() as { n: number }).n - 1500;
    // records applied from the remote's feed (800 entries and 800 files) before the kill
    const recordsBefore = (partial.prepare(`SELECT count(*) AS n FROM sync_changes WHERE origin != 'local'`).get() as { n: number }).n;
    partial.close();
    expect(pulledBefore).toBeGreaterThan(0);
    expect(pulledBefore).toBeLessThan(800);

    // ── restart and finish
    local = await startServe(localDir, args);
    children.push(local);
    const done = await local.call('POST', '/sync/v1/run?wait=60');
    expect(done.body).toMatchObject({ state: 'synced', pending: 0, conflicts: 0 });
    // the last run resumed the pull: it applied only what the killed one had not
    expect(done.body.progress.pulled).toBe(1600 - recordsBefore);
    await local.kill('SIGTERM');

    const { snap, pending, conflicts } = await childSnapshot(localDir);
    expect(pending).toBe(0);
    expect(conflicts).toBe(0);
    expect(snap.entries).toHaveLength(2300);
    expect(new Set(snap.entries.map((e: any) => e.id)).size).toBe(2300);
    expect(snap).toEqual(await snapshot(remote));
  }, 180_000);

  it('of the remote mid-push: the local side retries until it is back, and the remote ends with exactly what was sent', async () => {
    const remoteDir = tempDir('kill-remote');
    const port = await freePort();
    // the remote's records on PostgreSQL in the postgres project (`--db`), its files in its data dir
    const remoteDb = await serverDatabase();
    databases.push(remoteDb);
    const remoteArgs = ['--port', String(port), '--sync-interval', '0', ...(remoteDb.databaseUrl ? ['--db', remoteDb.databaseUrl] : [])];
    let remote = await startServe(remoteDir, remoteArgs);
    children.push(remote);
    const local = await startInstance({
      sync: { batchSize: 20, retry: { baseMs: 50, maxMs: 500, maxAttempts: 60, maxRetryAfterMs: 5000, timeoutMs: 10_000 } },
    });
    instances.push(local);
    // serve's own URL, as a person would type it
    const remoteAsInstance = { url: remote.url, token: remote.token } as Instance;
    await connect(local, remoteAsInstance);
    await seed(local, 600, 'L');

    const run = local.service.sync.syncNow(local.companyKey);
    await waitFor('a push under way', async () => (await local.service.sync.status(local.companyKey)).progress?.pushed ?? 0, (n) => n >= 100);
    await remote.kill('SIGKILL');
    expect((await local.service.sync.status(local.companyKey)).progress!.pushed).toBeLessThan(1200);
    await new Promise((r) => setTimeout(r, 300));
    remote = await startServe(remoteDir, remoteArgs);
    children.push(remote);

    const status = await run;
    expect(status.last_error).toBeUndefined();
    expect(status).toMatchObject({ state: 'synced', pending: 0, conflicts: 0 });
    await remote.kill('SIGTERM');
    const { snap } = remoteDb.databaseUrl ? await pgChildSnapshot(remoteDir, remoteDb.databaseUrl) : await childSnapshot(remoteDir);
    expect(snap.entries).toHaveLength(600);
    expect(snap.attachments).toHaveLength(600);
    expect(snap).toEqual(await snapshot(local));
  }, 120_000);
});
