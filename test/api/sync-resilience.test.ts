import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { v7 as uuidv7 } from 'uuid';
import { afterEach, describe, expect, it } from 'vitest';
import { importEntries } from '../../src-main/core/silo/import.ts';
import { hashBytes } from '../../src-main/core/files/hashed-bytes.ts';
import { storeAttachment } from '../../src-main/core/silo/attachments.ts';
import { finishFullPull, startFullPull } from '../../src-main/core/sync/full-pull.ts';
import { turnsDuring } from '../support/event-loop-turns.ts';
import {
  attach, backupOf, connect, invoiceDoc, patch, putEntry, snapshot, startInstance, sync, type Instance,
} from './sync-helpers.ts';

let open: Instance[] = [];
afterEach(async () => {
  await Promise.all(open.map((i) => i.close()));
  open = [];
});

async function instance(opts: Parameters<typeof startInstance>[0] = {}): Promise<Instance> {
  const t = await startInstance(opts);
  open.push(t);
  return t;
}

async function pair(localOpts: Parameters<typeof startInstance>[0] = {}, remoteOpts: Parameters<typeof startInstance>[0] = {}) {
  // These tests count the remote's pages: none is cut short for time (SyncOptions.feedPageMs, sync-feed.test.ts) on a slow machine.
  const remoteSync = { feedPageMs: 60_000, ...remoteOpts.sync };
  const [local, remote] = await Promise.all([instance(localOpts), instance({ ...remoteOpts, sync: remoteSync, remote: true })]);
  await connect(local, remote);
  return { local, remote };
}

/** `n` entries with a small attachment each, written in-process (fast). */
async function seed(t: Instance, n: number, attachmentBytes = 2000): Promise<string[]> {
  const items = Array.from({ length: n }, (_, i) => ({ id: uuidv7(), data: invoiceDoc(`SEED-${i}`) }));
  const { failed } = await importEntries(t.ctx, items);
  expect(failed).toBe(0);
  for (const item of items) await storeAttachment(t.ctx, item.id, { id: 'scan', name: 'scan.pdf' }, hashBytes(randomBytes(attachmentBytes)));
  return items.map((i) => i.id);
}

const entryCount = async (t: Instance) =>
  (await t.service.db.sqlFirst<{ n: number }>(`SELECT count(*) AS n FROM entries WHERE company_id = ? AND folder != 'conflicts'`, [t.companyKey]))!.n;
const countRows = async (t: Instance, table: 'attachments') =>
  (await t.service.db.sqlFirst<{ n: number }>(`SELECT count(*) AS n FROM ${table} WHERE company_id = ?`, [t.companyKey]))!.n;
const config = async (t: Instance) => (await t.service.db.sqlFirst<any>('SELECT * FROM sync_config WHERE company_id = ?', [t.companyKey]))!;

/** An entry removed on the remote, as a tool with a sync token can do (Silodesk's own API deletes no entries). */
async function deleteOnRemote(remote: Instance, id: string): Promise<void> {
  const row = (await remote.service.db.sqlFirst<{ version: number }>(`SELECT version FROM sync_changes WHERE kind = 'entry' AND record_id = ?`, [id]))!;
  const res = await remote.call('PUT', `/sync/v1/records/entry/${id}`, { origin: '0190c1a0-3333-7000-8000-000000000001', base_version: row.version, deleted: true });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

describe('sync resilience', () => {
  it('restarts with a full pull when the remote answers 410 to the saved cursor, without duplicating anything', async () => {
    const { local, remote } = await pair();
    await putEntry(local);
    await putEntry(remote);
    await sync(local);
    const r2 = await putEntry(remote, { tags: ['after'] });
    await local.service.db.sqlRun(`UPDATE sync_config SET pull_cursor = 'not-a-cursor'`);
    remote.requests.length = 0;

    const status = await sync(local);
    const feedCalls = remote.requests.filter((r) => r.startsWith('GET /sync/v1/changes'));
    expect(feedCalls[0]).toBe('GET /sync/v1/changes 410');
    expect(feedCalls.slice(1).every((r) => r.endsWith(' 200'))).toBe(true);
    expect(await config(local)).toMatchObject({ full_pull: 0 });
    expect(status.conflicts).toBe(0);
    expect((await local.call('GET', `/silo/v1/entries/${r2.id}`)).body.tags).toEqual(['after']);
    expect(await entryCount(local)).toBe(3);
    expect(await snapshot(local)).toEqual(await snapshot(remote));
  });

  it('pushes again what a remote restored from an older backup has lost', async () => {
    const { local, remote } = await pair();
    const kept = await putEntry(local);
    await sync(local);
    const backup = await backupOf(remote);
    const lost = await putEntry(local);
    await patch(local, kept.id, { tags: ['changed-after-backup'] });
    await sync(local);
    expect(await entryCount(remote)).toBe(2);

    await remote.restart(backup);
    rmSync(dirname(backup), { recursive: true, force: true });
    expect(await entryCount(remote)).toBe(1);
    const status = await sync(local);
    expect(status.conflicts).toBe(0);
    expect(await entryCount(remote)).toBe(2);
    expect((await remote.call('GET', `/silo/v1/entries/${lost.id}`)).status).toBe(200);
    expect((await remote.call('GET', `/silo/v1/entries/${kept.id}`)).body.tags).toEqual(['changed-after-backup']);
    expect(await snapshot(local)).toEqual(await snapshot(remote));
  });

  it('refuses a pull that would delete most entries, deletes nothing, and applies it when told to', async () => {
    const { local, remote } = await pair();
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) ids.push((await putEntry(local)).id);
    await sync(local);
    // one deletion is fine
    await deleteOnRemote(remote, ids[0]);
    await sync(local);
    expect(await entryCount(local)).toBe(5);
    for (const id of ids.slice(1, 4)) await deleteOnRemote(remote, id);
    const cursor = (await config(local)).pull_cursor;

    const refused = await local.service.sync.syncNow(local.companyKey);
    expect(refused.state).toBe('error');
    expect(refused.last_error).toMatchObject({ kind: 'refused', message: expect.stringContaining('would delete 3 of the 5 entries') });
    expect(await entryCount(local)).toBe(5);
    expect((await config(local)).pull_cursor).toBe(cursor);

    const res = await local.call('POST', '/sync/v1/run?wait=30&allow_mass_deletion=true');
    expect(res.body).toMatchObject({ state: 'synced' });
    expect(await entryCount(local)).toBe(2);
    expect(await snapshot(local)).toEqual(await snapshot(remote));
  });

  it('parks what the other side refuses as invalid, goes on with the rest, and retries on request', async () => {
    const { local, remote } = await pair();
    // A meta row each side holds that its peer's schema refuses (a reference over 255 characters, as a
    // database edited behind the app's back or an older version could hold): one refused on push, one on pull.
    const plantBadMeta = (t: Instance, entryId: string) =>
      t.service.db.tx(async () => {
        const at = new Date().toISOString();
        await t.service.db.sqlRun(
          `INSERT INTO entry_meta (company_id, entry_id, src, key, ref, value, shared, link_scope, link_url, created_at, updated_at) VALUES (?, ?, 'erp', 'k', ?, '"v"', 0, '', '', ?, ?)`,
          [t.companyKey, entryId, 'r'.repeat(300), at, at],
        );
      }, { origin: 'local' });
    const mine = await putEntry(local);
    const theirs = await putEntry(remote);
    await sync(local);
    await plantBadMeta(local, mine.id);
    await plantBadMeta(remote, theirs.id);
    const other = await putEntry(local);

    const status = await local.service.sync.syncNow(local.companyKey);
    expect(status).toMatchObject({ state: 'error', parked: 2, pending: 0 });
    expect((await remote.call('GET', `/silo/v1/entries/${other.id}`)).status).toBe(200);
    const parked = (await local.call('GET', '/sync/v1/parked')).body.list;
    expect(parked.map((p: any) => [p.direction, p.record_id])).toEqual([
      ['push', `${mine.id}:erp:k`],
      ['pull', `${theirs.id}:erp:k`],
    ]);
    for (const p of parked) expect(p.error).toMatchObject({ key: 'validation', fields: { '$.record.ref': expect.any(String) } });

    // both rows are put right through the API; both parked changes are retried
    for (const [t, id] of [[local, mine.id], [remote, theirs.id]] as const) {
      const fixed = await t.call('PUT', `/silo/v1/entries/${id}/meta/k`, { src: 'erp', ref: 'short', value: 'v' });
      expect(fixed.status, JSON.stringify(fixed.body)).toBe(200);
    }
    // the row fixed here is a newer change than the one parked: it waits to go out again
    expect((await local.call('GET', '/sync/v1/status')).body.pending).toBe(1);
    for (const p of parked) expect((await local.call('POST', `/sync/v1/parked/${p.id}/retry`)).body).toEqual({ retried: true });
    const after = await sync(local);
    expect(after).toMatchObject({ state: 'synced', parked: 0, pending: 0 });
    expect(await snapshot(local)).toEqual(await snapshot(remote));
    expect((await snapshot(local)).meta.map((m: any) => m.ref)).toEqual(['short', 'short']);
  });

  it('can be cancelled, and the next sync resumes where it stopped', async () => {
    const { local, remote } = await pair({ sync: { pageSize: 10 } });
    await seed(remote, 120);
    const run = local.service.sync.syncNow(local.companyKey);
    while (((await local.service.sync.status(local.companyKey)).progress?.pulled ?? 0) === 0) await new Promise((r) => setTimeout(r, 2));
    local.service.sync.cancel(local.companyKey);
    const cancelled = await run;
    expect(cancelled.last_error).toMatchObject({ kind: 'cancelled' });
    expect(cancelled.state).not.toBe('error');
    const partial = await entryCount(local);
    expect(partial).toBeGreaterThan(0);
    expect(partial).toBeLessThan(120);

    // 240 records (entry + file) in pages of 10: starting over would read 24 pages. What is left
    // is read once, and the page under way when the cancel came once more (its slices may have
    // committed before its cursor did: time-slices.ts).
    const applied = partial + (await countRows(local, 'attachments'));
    remote.requests.length = 0;
    await sync(local);
    const pages = remote.requests.filter((r) => r.startsWith('GET /sync/v1/changes')).length;
    expect(pages).toBeLessThanOrEqual(Math.ceil((240 - applied) / 10) + 1);
    expect(await entryCount(local)).toBe(120);
    expect(await snapshot(local)).toEqual(await snapshot(remote));
  });

  it('applies a large page in slices: the pulling instance answers in between, and a page lands part by part', async () => {
    const { local, remote } = await pair({ sync: { pageSize: 500 } });
    await seed(remote, 80);
    remote.requests.length = 0;
    let done = false;
    const running = local.service.sync.syncNow(local.companyKey).finally(() => (done = true));
    const seen: number[] = [];
    while (!done) {
      // an HTTP request to the pulling instance is answered while the page is applied
      const res = await local.call('GET', '/silo/v1/folders');
      expect(res.status).toBe(200);
      seen.push(await entryCount(local));
      await new Promise((r) => setTimeout(r, 1));
    }
    expect((await running).last_error).toBeUndefined();
    // 160 records (entry + file) came in one page, and were seen landing part of the way
    expect(remote.requests.filter((r) => r.startsWith('GET /sync/v1/changes'))).toHaveLength(1);
    expect(seen.some((n) => n > 0 && n < 80), `counts seen: ${seen.join(', ')}`).toBe(true);
    expect(await entryCount(local)).toBe(80);
    expect(await snapshot(local)).toEqual(await snapshot(remote));
  });

  it('ends a full pull in short steps: what the remote no longer serves goes back to it, what it served stays agreed', async () => {
    const { local } = await pair();
    const ids = await seed(local, 12, 10);
    const { db } = local.service;
    // as if all 24 records (entries and files) had been agreed with the remote, and a full pull saw only the first 5 entries
    await db.sqlRun('UPDATE sync_changes SET remote_version = 1, synced_version = version, origin = ? WHERE company_id = ?', ['0190c1a0-4444-7000-8000-000000000001', local.companyKey]);
    await db.tx(async () => {
      for (const id of ids.slice(0, 5)) await db.sqlRun(`INSERT INTO sync_seen (company_id, kind, record_id) VALUES (?, 'entry', ?)`, [local.companyKey, id]);
      await db.sqlRun('UPDATE sync_config SET full_pull = 1 WHERE company_id = ?', [local.companyKey]);
    }, { origin: 'local' });
    // three rows a step: the sweep crosses many step boundaries
    await finishFullPull(db, local.companyKey, 3);
    const rows = await db.sql<{ kind: string; record_id: string; origin: string; remote_version: number | null }>(
      'SELECT kind, record_id, origin, remote_version FROM sync_changes WHERE company_id = ? ORDER BY seq', [local.companyKey]);
    expect(rows).toHaveLength(24);
    const kept = rows.filter((r) => r.remote_version !== null);
    expect(kept.map((r) => r.record_id).sort()).toEqual(ids.slice(0, 5).sort());
    expect(rows.filter((r) => r.remote_version === null).every((r) => r.origin === 'local')).toBe(true);
    expect((await db.sqlFirst<{ n: number }>('SELECT count(*) AS n FROM sync_seen WHERE company_id = ?', [local.companyKey]))!.n).toBe(0);
    expect((await config(local)).full_pull).toBe(0);
  });

  it('pointed at a new remote, gives the change log back to this instance in short steps, others let in between', async () => {
    const { local } = await pair();
    await seed(local, 12, 10);
    const { db } = local.service;
    // as if all 24 records (entries and files) had been agreed with the old remote
    await db.sqlRun('UPDATE sync_changes SET remote_version = 1, synced_version = version, origin = ? WHERE company_id = ?', ['0190c1a0-4444-7000-8000-000000000001', local.companyKey]);
    // three rows a step: eight steps
    const { turns } = await turnsDuring(() => startFullPull(db, local.companyKey, true, 3));
    const rows = await db.sql<{ origin: string; remote_version: number | null; synced_version: number | null }>(
      'SELECT origin, remote_version, synced_version FROM sync_changes WHERE company_id = ?', [local.companyKey]);
    expect(rows).toHaveLength(24);
    expect(rows.every((r) => r.origin === 'local' && r.remote_version === null && r.synced_version === null)).toBe(true);
    expect(await config(local)).toMatchObject({ full_pull: 1, pull_cursor: null });
    expect(turns).toBeGreaterThanOrEqual(6);
  });

  it('rides out the remote stopping and restarting during a push: retries succeed, nothing is lost or doubled', async () => {
    const { local, remote } = await pair({ sync: { batchSize: 10, retry: { baseMs: 50, maxMs: 400, maxAttempts: 12, maxRetryAfterMs: 5000, timeoutMs: 10_000 } } });
    await seed(local, 150);
    const run = local.service.sync.syncNow(local.companyKey);
    while ((await entryCount(remote)) === 0) await new Promise((r) => setTimeout(r, 2));
    await remote.stopServing();
    const atStop = await entryCount(remote);
    expect(atStop).toBeLessThan(150);
    await new Promise((r) => setTimeout(r, 500));
    await remote.listen();
    const status = await run;
    expect(status.last_error).toBeUndefined();
    expect(status.state).toBe('synced');
    expect(await entryCount(remote)).toBe(150);
    expect(await snapshot(local)).toEqual(await snapshot(remote));
  });

  it('is offline while the remote is unreachable, keeps the changes pending, and catches up later', async () => {
    const { local, remote } = await pair({ sync: { retry: { baseMs: 5, maxMs: 20, maxAttempts: 3, maxRetryAfterMs: 1000, timeoutMs: 2000 } } });
    await remote.stopServing();
    await putEntry(local);
    const offline = await local.service.sync.syncNow(local.companyKey);
    expect(offline).toMatchObject({ state: 'offline', pending: 1, last_error: { kind: 'network' } });
    await remote.listen();
    expect(await sync(local)).toMatchObject({ state: 'synced', pending: 0, last_success_at: expect.any(String) });
  });

  it('syncs by itself every N minutes while not paused', async () => {
    const { local, remote } = await pair({ sync: { tickMs: 20 } });
    await putEntry(local);
    expect((await local.call('PUT', '/sync/v1/settings', { remote_url: remote.url, interval_minutes: 1, paused: true })).status).toBe(200);
    local.service.sync.start();
    await new Promise((r) => setTimeout(r, 150));
    expect(await entryCount(remote)).toBe(0);
    expect((await local.call('PUT', '/sync/v1/settings', { remote_url: remote.url, interval_minutes: 1, paused: false })).status).toBe(200);
    // never synced: due at once
    const synced = () => local.service.sync.status(local.companyKey);
    for (let now = await synced(); !now.last_success_at || now.running; now = await synced()) await new Promise((r) => setTimeout(r, 10));
    expect(await entryCount(remote)).toBe(1);
    await putEntry(local);
    // synced a moment ago: not due for a minute
    await new Promise((r) => setTimeout(r, 150));
    expect(await entryCount(remote)).toBe(1);
    await local.service.db.sqlRun(`UPDATE sync_config SET last_attempt_at = ?`, [new Date(Date.now() - 61_000).toISOString()]);
    while ((await entryCount(remote)) < 2) await new Promise((r) => setTimeout(r, 10));
  });

  it('honours 429 Retry-After from a remote that limits its rate', async () => {
    // A remote on another machine: the owner's-local-tools exemption does not apply there.
    const { local, remote } = await pair({}, { rateLimit: { perSecond: 3, burst: 3, exemptLocalOwner: false } });
    await putEntry(local);
    await attach(local, (await putEntry(local)).id, 'f', randomBytes(100));
    const started = Date.now();
    const status = await sync(local);
    expect(status.state).toBe('synced');
    expect(remote.requests.some((r) => r.endsWith(' 429'))).toBe(true);
    // Retry-After said a second; a client retrying sooner would have been refused again
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(await snapshot(local)).toEqual(await snapshot(remote));
  });

  it('pointed at another remote, brings it everything (local and previously pulled records alike)', async () => {
    const { local, remote } = await pair();
    await putEntry(local);
    await putEntry(remote);
    await sync(local);
    const fresh = await instance({ remote: true });
    await connect(local, fresh);
    const status = await sync(local);
    expect(status.conflicts).toBe(0);
    expect(await entryCount(fresh)).toBe(2);
    expect(await snapshot(local)).toEqual(await snapshot(fresh));
  });
});

describe('sync settings', () => {
  it('keep the token to themselves and accept only http(s) remotes, plain http only on this machine', async () => {
    const { local, remote } = await pair();
    const got = (await local.call('GET', '/sync/v1/settings')).body;
    expect(got).toEqual({ configured: true, remote_url: remote.url, has_token: true, interval_minutes: 0, paused: false });
    expect(JSON.stringify((await local.call('GET', '/sync/v1/status')).body)).not.toContain(remote.token);
    for (const url of ['ftp://example.com', 'http://example.com', 'https://user:pw@example.com', 'https://example.com/?a=1', 'not a url']) {
      const res = await local.call('PUT', '/sync/v1/settings', { remote_url: url, token: 'x' });
      expect(res.status, url).toBe(422);
      expect(res.body.fields['$.remote_url']).toBeTruthy();
    }
    // keeping the stored token: no token field
    expect((await local.call('PUT', '/sync/v1/settings', { remote_url: `${remote.url}/`, interval_minutes: 5, paused: true })).body).toMatchObject({ remote_url: remote.url, has_token: true, paused: true });
    expect((await local.call('GET', '/sync/v1/status')).body.state).toBe('paused');
  });

  it('test the connection and say what answered, or why not', async () => {
    const { local, remote } = await pair();
    const ok = (await local.call('POST', '/sync/v1/settings/test', {})).body;
    expect(ok).toMatchObject({ ok: true, remote_instance_id: remote.service.instanceId, caller_kind: 'owner', remote_company: { id: remote.companyId } });
    const bad = (await local.call('POST', '/sync/v1/settings/test', { token: 'sd_wrong' })).body;
    expect(bad).toMatchObject({ ok: false, error: { kind: 'auth' } });
    const self = (await local.call('POST', '/sync/v1/settings/test', { remote_url: local.url, token: local.token })).body;
    expect(self).toMatchObject({ ok: false, error: { kind: 'config' } });
    expect((await local.call('DELETE', '/sync/v1/settings')).body).toMatchObject({ configured: false });
    expect((await local.call('POST', '/sync/v1/run')).status).toBe(409);
    expect((await local.call('GET', '/sync/v1/status')).body.state).toBe('not-configured');
  });
});
