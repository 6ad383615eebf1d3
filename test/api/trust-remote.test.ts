import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { v4 as uuidv4, v7 as uuidv7 } from 'uuid';
import { afterEach, describe, expect, it } from 'vitest';
import { hashBytes } from '../../src-main/core/files/hashed-bytes.ts';
import { storeBlobs } from '../../src-main/core/files/blob-writes.ts';
import { MAX_ATTACHMENT_BYTES } from '../../src-main/core/silo/attachments.ts';
import { DEFAULT_SYNC_OPTIONS } from '../../src-main/core/sync/controller.ts';
import { connect, createSeries, issue, putEntry, sha256, startInstance, sync, type Instance } from './sync-helpers.ts';

let open: Instance[] = [];
afterEach(async () => {
  await Promise.all(open.map((i) => i.close()));
  open = [];
});

async function pair() {
  const [local, remote] = await Promise.all([startInstance(), startInstance({ remote: true })]);
  open.push(local, remote);
  await connect(local, remote);
  return { local, remote };
}

const parked = async (t: Instance) => (await t.call('GET', '/sync/v1/parked')).body.list as any[];
const entryCount = async (t: Instance) =>
  (await t.service.db.sqlFirst<{ n: number }>(`SELECT count(*) AS n FROM entries WHERE company_id = ?`, [t.companyKey]))!.n;

/**
 * A malicious remote writes what its own API would refuse straight into its database, and serves it
 * (the change is recorded by the database's triggers, as for any write in a transaction with an origin).
 */
async function plant(remote: Instance, insert: () => Promise<unknown>): Promise<void> {
  await remote.service.db.tx(insert, { origin: 'local' });
}

describe('a remote is not trusted', () => {
  it('cannot make a laptop store a file over the 50 MiB cap, whatever size it declares', async () => {
    expect(DEFAULT_SYNC_OPTIONS.maxBlobBytes).toBe(MAX_ATTACHMENT_BYTES);
    const { local, remote } = await pair();
    const e = await putEntry(remote);
    const big = Buffer.alloc(MAX_ATTACHMENT_BYTES + 5 * 1024 * 1024, 7);
    const hash = sha256(big);
    await storeBlobs(remote.service.blobs, [hashBytes(big)]);
    expect(await remote.service.blobs.holds(hash)).toBe(true);
    // it even lies about the size: 100 bytes
    await plant(remote, () =>
      remote.service.db.sqlRun(
        `INSERT INTO attachments (entry_id, id, company_id, name, "desc", mime, hash, size, meta, created_at) VALUES (?, 'huge', ?, 'huge.bin', '', 'application/octet-stream', ?, 100, '{}', ?)`,
        [e.id, remote.companyKey, hash, new Date().toISOString()],
      ),
    );

    const status = await local.service.sync.syncNow(local.companyKey);
    expect(status.last_error).toBeUndefined();
    expect(status).toMatchObject({ state: 'error', parked: 1 });
    expect(await local.service.blobs.holds(hash)).toBe(false);
    const [p] = await parked(local);
    expect(p).toMatchObject({ direction: 'pull', kind: 'attachment', record_id: `${e.id}:huge` });
    expect(p.error.message).toMatch(/^refused: the remote sent more than the 52428800-byte limit/);
    // the entry itself came through
    expect((await local.call('GET', `/silo/v1/entries/${e.id}`)).status).toBe(200);
  }, 60_000);

  it('cannot plant a series "issued" by the laptop, nor add entries to the laptop\'s series, with a junk signature', async () => {
    const { local, remote } = await pair();
    const mine = await createSeries(local, 'FA');
    const first = await issue(local, mine.id);
    await sync(local);
    const laptopId = local.service.instanceId;
    const junk = `${Buffer.from('{"alg":"ES256","kid":"x"}').toString('base64url')}.${Buffer.from('{}').toString('base64url')}.${randomBytes(64).toString('base64url')}`;
    const at = new Date().toISOString();
    const planted = uuidv4();
    await plant(remote, () =>
      remote.service.db.sqlRun(
        `INSERT INTO series (id, company_id, name, description, code, prefix, padding, suffix, start, issuer, last_index, last_entry_id, sigs, request_hash, created_at, updated_at)
         VALUES (?, ?, 'Planted', '', 'PL', 'PL-', 4, '', 1, ?, 0, NULL, ?, '', ?, ?)`,
        [planted, remote.companyKey, laptopId, JSON.stringify([junk]), at, at],
      ),
    );
    const entry = uuidv4();
    await plant(remote, async () => {
      const { db } = remote.service;
      await db.sqlRun(
        `INSERT INTO series_entries (id, company_id, series_id, idx, code, meta, previous_id, sigs, request_hash, created_at, updated_at) VALUES (?, ?, ?, 2, 'FA-0002', '{}', ?, ?, '', ?, ?)`,
        [entry, remote.companyKey, mine.id, first.id, JSON.stringify([junk]), at, at],
      );
      await db.sqlRun(`UPDATE series SET last_index = 2, last_entry_id = ? WHERE company_id = ? AND id = ?`, [entry, remote.companyKey, mine.id]);
    });

    const status = await local.service.sync.syncNow(local.companyKey);
    expect(status).toMatchObject({ state: 'error', parked: 2 });
    const list = await parked(local);
    expect(list.map((p) => [p.kind, p.record_id]).sort()).toEqual([['series', planted], ['series_entry', entry]].sort());
    for (const p of list) expect(p.error.message).toMatch(/refused/);
    expect(list.find((p) => p.kind === 'series').error.message).toMatch(/names this instance as its issuer, but this instance did not sign it/);
    expect((await local.call('GET', `/sequence/v1/series/${planted}`)).status).toBe(404);
    expect((await local.call('GET', `/sequence/v1/series/${mine.id}/verify`)).body).toEqual({ valid: true, count: 1 });
    // the laptop's own numbering goes on from its own head
    expect((await issue(local, mine.id)).code).toBe('FA-0002');
  });

  it('cannot empty a laptop bit by bit: deletions add up over syncs (10 → 1 in four steps is refused at the second)', async () => {
    const { local, remote } = await pair();
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) ids.push((await putEntry(local)).id);
    await sync(local);
    const deleteOnRemote = async (id: string) => {
      const row = (await remote.service.db.sqlFirst<{ version: number }>(`SELECT version FROM sync_changes WHERE kind = 'entry' AND record_id = ?`, [id]))!;
      const res = await remote.call('PUT', `/sync/v1/records/entry/${id}`, { origin: uuidv7(), base_version: row.version, deleted: true });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    };

    const outcomes: string[] = [];
    let next = 0;
    for (const step of [4, 3, 1, 1]) {
      for (let i = 0; i < step; i++) await deleteOnRemote(ids[next++]);
      const status = await local.service.sync.syncNow(local.companyKey);
      outcomes.push(status.last_error?.kind ?? 'ok');
      if (status.last_error) {
        expect(status.state).toBe('error');
        expect(status.last_error.message).toMatch(/^refused: this sync would delete \d+ of the 6 entries here; with the 4 the remote deleted since .*, that is \d+ of the 10 entries held then \(more than half\)\. Nothing was deleted/);
      }
    }
    expect(outcomes).toEqual(['ok', 'refused', 'refused', 'refused']);
    expect(await entryCount(local)).toBe(6);
    // a person who means it applies it once; the count starts over from there
    const allowed = await local.call('POST', '/sync/v1/run?wait=30&allow_mass_deletion=true');
    expect(allowed.body).toMatchObject({ state: 'synced' });
    expect(await entryCount(local)).toBe(1);
    await putEntry(local);
    expect(await sync(local)).toMatchObject({ state: 'synced' });
  });
});
