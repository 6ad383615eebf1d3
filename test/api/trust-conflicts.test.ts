import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { v7 as uuidv7 } from 'uuid';
import { attach, conflicts, connect, type Instance, instancesClosedAfterEach, invoiceDoc, patch, putEntry, putMeta, sha256, snapshot, sync, trashedEntry } from './sync-helpers.ts';
import { COPIES_AND_SIGNERS } from '../../src-main/core/sync/migration-copies-signers.ts';

const instances = instancesClosedAfterEach();

const get = async (t: Instance, id: string) => (await t.call('GET', `/silo/v1/entries/${id}`)).body;
const code = async (t: Instance, id: string) => (await get(t, id)).data.doc.code;
const link = (entry: any) => entry.meta.find((m: any) => m.key === 'sync-conflict' && m.src === 'sync')?.value;

async function resolve(t: Instance, id: string, keep: 'remote' | 'mine') {
  const res = await t.call('POST', `/sync/v1/conflicts/${id}/resolve`, { keep });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

/**
 * A remote and two laptops holding one entry; `other` changed it and synced first,
 * then `mine` changed it too: `mine`'s sync ends in a conflict (answers it).
 */
async function conflictOnThree() {
  const [remote, mine, other] = await instances('remote', 'laptop', 'laptop');
  await connect(mine, remote);
  await connect(other, remote);
  const e = await putEntry(mine, { tags: ['start'] });
  await sync(mine);
  await sync(other);
  await patch(other, e.id, { content_type: 'application/merge-patch+json', data: { doc: { code: 'THEIRS-1' } }, tags: ['theirs'] });
  await sync(other);
  await patch(mine, e.id, { content_type: 'application/merge-patch+json', data: { doc: { code: 'MINE-1' } }, tags: ['mine'] });
  const status = await mine.service.sync.syncNow(mine.companyKey);
  const [c] = await conflicts(mine);
  return { remote, mine, other, e, c, status };
}

async function everyoneSynced(remote: Instance, ...laptops: Instance[]) {
  for (let round = 0; round < 2; round++) for (const t of laptops) expect(await sync(t)).toMatchObject({ parked: 0, pending: 0 });
  for (const t of laptops) expect(await snapshot(t)).toEqual(await snapshot(remote));
}

describe('conflict copies sync like any entry', () => {
  it('a conflict copy edited on one laptop reaches the remote and the other laptop; the badge says conflicts, not error', async () => {
    const { remote, mine, other, e, c, status } = await conflictOnThree();
    // resolvable: a conflict to decide, nothing refused
    expect(status).toMatchObject({ state: 'conflicts', conflicts: 1, parked: 0, forks: 0, pending: 0 });
    expect(status.last_error).toBeUndefined();
    expect(c).toMatchObject({ kind: 'entry', record_id: e.id, copy_entry_id: expect.any(String) });

    // the copy went out with the same sync, and the other laptop gets it like any entry
    await sync(other);
    for (const t of [remote, other]) {
      const copy = await get(t, c.copy_entry_id);
      expect(copy).toMatchObject({ folder: 'conflicts', tags: ['mine'] });
      expect(copy.data.doc.code).toBe('MINE-1');
      expect(link(copy)).toMatchObject({ conflict_id: c.id, entry_id: e.id, holds: 'mine' });
    }

    // work done on the copy is pushed
    await patch(mine, c.copy_entry_id, { content_type: 'application/merge-patch+json', data: { doc: { code: 'MINE-2' } }, tags: ['mine', 'checked'] });
    const bytes = randomBytes(900);
    await attach(mine, c.copy_entry_id, 'scan', bytes, 'scan.pdf');
    await putMeta(mine, c.copy_entry_id, 'erp-id', 'E-77');
    expect(await sync(mine)).toMatchObject({ state: 'conflicts', pending: 0, parked: 0 });
    await sync(other);
    for (const t of [remote, other]) {
      const copy = await get(t, c.copy_entry_id);
      expect(copy.data.doc.code).toBe('MINE-2');
      expect(copy.tags).toEqual(['mine', 'checked']);
      expect(copy.attachments.map((a: any) => a.hash)).toEqual([sha256(bytes)]);
      expect(copy.meta.find((m: any) => m.key === 'erp-id').value).toBe('E-77');
    }
    // the winner is untouched everywhere
    for (const t of [remote, mine, other]) expect(await code(t, e.id)).toBe('THEIRS-1');
    await everyoneSynced(remote, mine, other);
  });

  it('"keep remote" moves my version, with its files and meta, to the trash on every instance: nothing is deleted', async () => {
    const { remote, mine, other, e, c } = await conflictOnThree();
    const bytes = randomBytes(1200);
    await attach(mine, c.copy_entry_id, 'note', bytes, 'note.txt');
    await putMeta(mine, c.copy_entry_id, 'erp-id', 'kept');

    expect(await resolve(mine, c.id, 'remote')).toMatchObject({ resolution: 'remote' });
    expect(await conflicts(mine)).toEqual([]);
    await everyoneSynced(remote, mine, other);
    for (const t of [remote, mine, other]) {
      expect(await code(t, e.id)).toBe('THEIRS-1');
      const copy = await trashedEntry(t, c.copy_entry_id);
      expect(copy.data.doc.code).toBe('MINE-1');
      expect(copy.attachments.map((a: any) => [a.id, a.hash])).toEqual([['note', sha256(bytes)]]);
      expect(copy.meta.find((m: any) => m.key === 'erp-id').value).toBe('kept');
      expect(link(copy)).toMatchObject({ holds: 'mine', resolution: 'remote' });
    }
    // The bytes travelled with it (a file of an entry in the trash is not served until it is restored).
    expect(await other.service.blobs.holds(sha256(bytes))).toBe(true);
    expect(await sync(mine)).toMatchObject({ state: 'synced' });
  });

  it('"keep mine" makes my edited copy the version everywhere; the remote\'s version is kept in the trash', async () => {
    const { remote, mine, other, e, c } = await conflictOnThree();
    await patch(mine, c.copy_entry_id, { content_type: 'application/merge-patch+json', data: { doc: { code: 'MINE-FIXED' } } });

    expect(await resolve(mine, c.id, 'mine')).toMatchObject({ resolution: 'mine' });
    await everyoneSynced(remote, mine, other);
    for (const t of [remote, mine, other]) {
      const entry = await get(t, e.id);
      expect(entry.data.doc.code).toBe('MINE-FIXED');
      expect(entry.folder).not.toBe('conflicts');
      const copy = await trashedEntry(t, c.copy_entry_id);
      expect(copy).toMatchObject({ tags: ['theirs'] });
      expect(copy.data.doc.code).toBe('THEIRS-1');
      expect(link(copy)).toMatchObject({ holds: 'remote', resolution: 'mine' });
    }
  });

  it('an entry the remote deleted while I added files: "keep remote" keeps my files and meta, in the trash, on the remote too', async () => {
    const [remote, mine] = await instances('remote', 'laptop');
    await connect(mine, remote);
    const e = await putEntry(mine);
    await sync(mine);
    const version = (await remote.service.db.sqlFirst<{ version: number }>(`SELECT version FROM sync_changes WHERE record_id = ?`, [e.id]))!.version;
    const gone = await remote.call('PUT', `/sync/v1/records/entry/${e.id}`, { origin: '0190c1a0-5555-7000-8000-000000000002', base_version: version, deleted: true });
    expect(gone.status, JSON.stringify(gone.body)).toBe(200);
    const bytes = randomBytes(800);
    await attach(mine, e.id, 'late', bytes);
    await putMeta(mine, e.id, 'erp-id', 'X-1');

    const status = await mine.service.sync.syncNow(mine.companyKey);
    expect(status).toMatchObject({ state: 'conflicts', conflicts: 1, parked: 0 });
    const [c] = await conflicts(mine);
    await resolve(mine, c.id, 'remote');
    await everyoneSynced(remote, mine);
    for (const t of [remote, mine]) {
      expect((await t.call('GET', `/silo/v1/entries/${e.id}`)).status).toBe(404);
      const copy = await trashedEntry(t, c.copy_entry_id);
      expect(copy.attachments.map((a: any) => a.hash)).toEqual([sha256(bytes)]);
      expect(copy.meta.find((m: any) => m.key === 'erp-id').value).toBe('X-1');
    }
  });

  it('"keep mine" on a meta conflict keeps the remote\'s value it replaced in the conflict, not nowhere', async () => {
    const [remote, mine] = await instances('remote', 'laptop');
    await connect(mine, remote);
    const e = await putEntry(mine);
    await putMeta(mine, e.id, 'erp-id', 'first');
    await sync(mine);
    await putMeta(remote, e.id, 'erp-id', 'theirs');
    await putMeta(mine, e.id, 'erp-id', 'mine');
    await mine.service.sync.syncNow(mine.companyKey);
    const [c] = await conflicts(mine);
    expect(c).toMatchObject({ kind: 'meta', loser: { value: 'mine' } });
    await resolve(mine, c.id, 'mine');
    await everyoneSynced(remote, mine);
    expect((await remote.call('GET', `/silo/v1/entries/${e.id}/meta/erp-id`)).body.value).toBe('mine');
    const [done] = (await mine.call('GET', '/sync/v1/conflicts?all=true')).body.list;
    expect(done).toMatchObject({ id: c.id, resolution: 'mine', loser: { value: 'theirs' } });
  });

  it('a signed entry in conflict: the copy holds it unsigned (its signature names the original), and "keep mine" gives the signature back', async () => {
    const [remote, mine] = await instances('remote', 'laptop');
    await connect(mine, remote);
    const id = uuidv7();
    const signed = await mine.call('PUT', `/silo/v1/entries/${id}`, { data: invoiceDoc('SIGNED-1'), sign: true });
    expect(signed.status, JSON.stringify(signed.body)).toBe(200);
    await sync(mine);
    await patch(remote, id, { tags: ['theirs'] });
    await patch(mine, id, { tags: ['mine'] });
    expect(await mine.service.sync.syncNow(mine.companyKey)).toMatchObject({ state: 'conflicts', parked: 0 });
    const [c] = await conflicts(mine);
    for (const t of [remote, mine]) {
      const copy = await get(t, c.copy_entry_id);
      expect(copy).toMatchObject({ signed: false, folder: 'conflicts', tags: ['mine'] });
      expect(copy.data.sigs).toBeUndefined();
    }
    await resolve(mine, c.id, 'mine');
    await everyoneSynced(remote, mine);
    for (const t of [remote, mine]) {
      const entry = await get(t, id);
      expect(entry).toMatchObject({ signed: true, tags: ['mine'] });
      expect(entry.data.sigs).toEqual(signed.body.data.sigs);
      expect(await trashedEntry(t, c.copy_entry_id)).toMatchObject({ tags: ['theirs'], signed: false });
    }
  });

  it('a conflict copy made before copies synced (local-only) goes out at the next sync after the upgrade', async () => {
    const [remote, mine] = await instances('remote', 'laptop');
    await connect(mine, remote);
    const e = await putEntry(mine);
    await sync(mine);
    await patch(remote, e.id, { tags: ['theirs'] });
    await patch(mine, e.id, { tags: ['mine'] });
    await mine.service.sync.syncNow(mine.companyKey);
    const [c] = await conflicts(mine);
    // as the old version left it: the copy recorded nowhere, marked local-only, unknown to the remote
    const db = mine.service.db.sqlite!;
    const theirs = remote.service.db;
    await theirs.tx(async () => {
      await theirs.sqlRun(`DELETE FROM entries WHERE id = ?`, [c.copy_entry_id]);
    }, { origin: 'local' });
    await theirs.sqlRun(`DELETE FROM sync_changes WHERE record_id = ? OR entry_id = ?`, [c.copy_entry_id, c.copy_entry_id]);
    db.prepare(`DELETE FROM sync_changes WHERE record_id = ? OR record_id LIKE ?`).run(c.copy_entry_id, `${c.copy_entry_id}:%`);
    db.prepare(`INSERT INTO sync_local_only (company_id, entry_id) VALUES (?, ?)`).run(mine.companyKey, c.copy_entry_id);
    // What migration 0010 does to such a database (its last statement creates a table that exists now), with the
    // change rows' time it wrote then (0035 dropped it).
    db.exec(`ALTER TABLE sync_changes ADD COLUMN at TEXT`);
    for (const statement of COPIES_AND_SIGNERS.filter((s) => !s.includes('CREATE TABLE'))) db.exec(statement);
    db.exec(`ALTER TABLE sync_changes DROP COLUMN at`);
    await mine.restart();

    expect(mine.service.db.sqlite!.prepare(`SELECT count(*) AS n FROM sync_local_only`).get()).toEqual({ n: 0 });
    await sync(mine);
    const copy = await get(remote, c.copy_entry_id);
    expect(copy).toMatchObject({ folder: 'conflicts', tags: ['mine'] });
    expect(link(copy)).toMatchObject({ entry_id: e.id });
  });
});
