import { randomBytes } from 'node:crypto';
import { v4 as uuidv4 } from 'uuid';
import { afterEach, describe, expect, it } from 'vitest';
import {
  attach, connect, conflicts, invoiceDoc, patch, putEntry, putMeta, sha256, snapshot, startInstance, sync, type Instance,
} from './sync-helpers.ts';

let open: Instance[] = [];
afterEach(async () => {
  await Promise.all(open.map((i) => i.close()));
  open = [];
});

async function pair(): Promise<{ local: Instance; remote: Instance }> {
  const [local, remote] = await Promise.all([startInstance(), startInstance({ remote: true })]);
  open.push(local, remote);
  await connect(local, remote);
  return { local, remote };
}

const get = async (t: Instance, id: string) => (await t.call('GET', `/silo/v1/entries/${id}`)).body;

/** An entry in the trash, as its latest version holds it: the entry itself answers 404 while it waits there. */
async function inTrash(t: Instance, id: string) {
  expect((await t.call('GET', `/silo/v1/entries/${id}`)).status).toBe(404);
  const latest = (await t.call('GET', `/silo/v1/entries/${id}/versions?limit=1`)).body.list[0];
  expect(latest.trashed).toBe(true);
  return (await t.call('GET', `/silo/v1/entries/${id}/versions/${latest.version}`)).body;
}

/** One entry both sides hold, then changed on both sides while apart. */
async function conflictingEntry(local: Instance, remote: Instance) {
  const e = await putEntry(local, { tags: ['start'] });
  await sync(local);
  await patch(remote, e.id, { content_type: 'application/merge-patch+json', data: { doc: { code: 'REMOTE-1' } }, tags: ['remote'] });
  await patch(local, e.id, { content_type: 'application/merge-patch+json', data: { doc: { code: 'LOCAL-1' } }, tags: ['local'] });
  return e;
}

describe('sync conflicts', () => {
  it("decides by server versions: the remote's version wins, mine is kept as a linked copy in `conflicts`", async () => {
    const { local, remote } = await pair();
    const e = await conflictingEntry(local, remote);

    const status = await local.service.sync.syncNow(local.companyKey);
    expect(status.state).toBe('conflicts');
    expect(status.conflicts).toBe(1);
    expect(status.pending).toBe(0);

    // the winner, on both sides
    for (const t of [local, remote]) {
      const winner = await get(t, e.id);
      expect(winner.data.doc.code).toBe('REMOTE-1');
      expect(winner.tags).toEqual(['remote']);
    }
    // the loser, kept and listed
    const [c] = await conflicts(local);
    expect(c).toMatchObject({ kind: 'entry', record_id: e.id, remote_origin: remote.service.instanceId });
    expect(c.remote_version).toBeGreaterThan(0);
    expect(c.loser.data.doc.code).toBe('LOCAL-1');
    const copy = await get(local, c.copy_entry_id);
    expect(copy.folder).toBe('conflicts');
    expect(copy.data.doc.code).toBe('LOCAL-1');
    expect(copy.tags).toEqual(['local']);
    expect(copy.meta).toEqual([expect.objectContaining({ key: 'sync-conflict', src: 'sync', ref: e.id, value: expect.objectContaining({ conflict_id: c.id, entry_id: e.id }) })]);
    // the copy syncs like any entry (trust-conflicts.test.ts follows it further)
    expect((await get(remote, c.copy_entry_id)).folder).toBe('conflicts');
    expect((await sync(local)).progress).toMatchObject({ pushed: 0 });
  });

  it('resolving "keep remote" moves the copy to the trash; nothing else changes', async () => {
    const { local, remote } = await pair();
    const e = await conflictingEntry(local, remote);
    await local.service.sync.syncNow(local.companyKey);
    const [c] = await conflicts(local);

    const res = await local.call('POST', `/sync/v1/conflicts/${c.id}/resolve`, { keep: 'remote' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ id: c.id, resolution: 'remote', resolved_at: expect.any(String) });
    expect(await inTrash(local, c.copy_entry_id)).toMatchObject({ data: { doc: { code: 'LOCAL-1' } } });
    expect(await conflicts(local)).toEqual([]);
    expect((await local.call('GET', '/sync/v1/conflicts?all=true')).body.list).toHaveLength(1);
    const status = await sync(local);
    expect(status.state).toBe('synced');
    expect((await get(remote, e.id)).data.doc.code).toBe('REMOTE-1');
    expect(await snapshot(local)).toEqual(await snapshot(remote));
    // resolving twice is a no-op
    expect((await local.call('POST', `/sync/v1/conflicts/${c.id}/resolve`, { keep: 'mine' })).body.resolution).toBe('remote');
  });

  it('resolving "keep mine" puts my version back over the winner as a new change, which the next sync pushes', async () => {
    const { local, remote } = await pair();
    const e = await conflictingEntry(local, remote);
    await local.service.sync.syncNow(local.companyKey);
    const [c] = await conflicts(local);
    // the accountant corrects the copy before keeping it
    await patch(local, c.copy_entry_id, { tags: ['local', 'checked'] });

    const res = await local.call('POST', `/sync/v1/conflicts/${c.id}/resolve`, { keep: 'mine' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const mine = await get(local, e.id);
    expect(mine.data.doc.code).toBe('LOCAL-1');
    expect(mine.tags).toEqual(['local', 'checked']);
    expect(mine.folder).not.toBe('conflicts');
    // the remote's version, set aside in the copy's place
    expect(await inTrash(local, c.copy_entry_id)).toMatchObject({ data: { doc: { code: 'REMOTE-1' } } });
    expect((await local.call('GET', '/sync/v1/status')).body).toMatchObject({ state: 'pending', conflicts: 0 });

    const status = await sync(local);
    expect(status.progress).toMatchObject({ conflicts: 0 });
    expect((await get(remote, e.id)).data.doc.code).toBe('LOCAL-1');
    expect(await snapshot(local)).toEqual(await snapshot(remote));
  });

  it('the same change made on both sides, or the same document stored on both, is no conflict', async () => {
    const { local, remote } = await pair();
    const e = await putEntry(local);
    await sync(local);
    await patch(local, e.id, { state: 'paid' });
    await patch(remote, e.id, { state: 'paid' });
    // one envelope imported on both sides under its own UUID
    const id = '0190c1a0-1111-7000-8000-00000000abcd';
    const data = invoiceDoc('SAME-1');
    for (const t of [local, remote]) expect((await t.call('PUT', `/silo/v1/entries/${id}`, { data })).status).toBe(200);

    const status = await sync(local);
    expect(status.conflicts).toBe(0);
    expect(await conflicts(local)).toEqual([]);
    expect(await snapshot(local)).toEqual(await snapshot(remote));
  });

  it('meta and attachments conflict record by record; losers are kept and restorable', async () => {
    const { local, remote } = await pair();
    const e = await putEntry(local);
    await putMeta(local, e.id, 'erp-id', 'first');
    await sync(local);
    // meta: both change it. attachment: both add one under the same id with different bytes
    await putMeta(local, e.id, 'erp-id', 'mine');
    await putMeta(remote, e.id, 'erp-id', 'theirs');
    const mineBytes = randomBytes(500);
    const theirBytes = randomBytes(600);
    await attach(local, e.id, 'invoice', mineBytes, 'invoice.pdf');
    await attach(remote, e.id, 'invoice', theirBytes, 'invoice.pdf');
    // and an unrelated change on each side goes through without conflict
    await patch(local, e.id, { tags: ['local-tag'] });

    const status = await local.service.sync.syncNow(local.companyKey);
    expect(status.conflicts).toBe(2);
    const list = await conflicts(local);
    expect(list.map((c) => c.kind).sort()).toEqual(['attachment', 'meta']);
    const metaConflict = list.find((c) => c.kind === 'meta')!;
    const fileConflict = list.find((c) => c.kind === 'attachment')!;
    expect(metaConflict.loser.value).toBe('mine');
    expect(fileConflict.loser.hash).toBe(sha256(mineBytes));
    expect((await local.call('GET', `/silo/v1/entries/${e.id}/meta/erp-id`)).body.value).toBe('theirs');
    expect((await get(remote, e.id)).tags).toEqual(['local-tag']);

    // keep mine for the file, theirs for the meta
    expect((await local.call('POST', `/sync/v1/conflicts/${fileConflict.id}/resolve`, { keep: 'mine' })).status).toBe(200);
    expect((await local.call('POST', `/sync/v1/conflicts/${metaConflict.id}/resolve`, { keep: 'remote' })).status).toBe(200);
    await sync(local);
    const file = await fetch(`${remote.url}/silo/v1/entries/${e.id}/files/invoice`, { headers: { authorization: `Bearer ${remote.token}` } });
    expect(Buffer.from(await file.arrayBuffer()).equals(mineBytes)).toBe(true);
    expect(await snapshot(local)).toEqual(await snapshot(remote));
  });

  it('an entry the remote deleted while I added files and meta to it: my additions are kept, and come back with "keep mine"', async () => {
    const { local, remote } = await pair();
    const e = await putEntry(local);
    await sync(local);
    const version = (await remote.service.db.sqlFirst<{ version: number }>(`SELECT version FROM sync_changes WHERE record_id = ?`, [e.id]))!.version;
    const gone = await remote.call('PUT', `/sync/v1/records/entry/${e.id}`, { origin: '0190c1a0-5555-7000-8000-000000000001', base_version: version, deleted: true });
    expect(gone.status, JSON.stringify(gone.body)).toBe(200);
    const bytes = randomBytes(700);
    await attach(local, e.id, 'late', bytes);
    await putMeta(local, e.id, 'erp-id', 'X-9');

    const status = await local.service.sync.syncNow(local.companyKey);
    expect(status.conflicts).toBe(1);
    expect((await local.call('GET', `/silo/v1/entries/${e.id}`)).status).toBe(404);
    const [c] = await conflicts(local);
    const copy = await get(local, c.copy_entry_id);
    expect(copy.attachments.map((a: any) => [a.id, a.hash])).toEqual([['late', sha256(bytes)]]);
    expect(copy.meta.map((m: any) => m.key).sort()).toEqual(['erp-id', 'sync-conflict']);

    expect((await local.call('POST', `/sync/v1/conflicts/${c.id}/resolve`, { keep: 'mine' })).status).toBe(200);
    await sync(local);
    const back = await get(remote, e.id);
    expect(back.attachments.map((a: any) => a.hash)).toEqual([sha256(bytes)]);
    expect(back.meta.map((m: any) => [m.key, m.value])).toEqual([['erp-id', 'X-9']]);
    expect(await snapshot(local)).toEqual(await snapshot(remote));
  });

  it('a workflow changed on both sides keeps the losing definition in its version history', async () => {
    const { local, remote } = await pair();
    const id = uuidv4();
    const step = { id: uuidv4(), provider: 'silo.state', config: { state: 'registered' } };
    expect((await local.call('PUT', `/transform/v1/workflows/${id}`, { name: 'flow', steps: [step] })).status).toBe(200);
    await sync(local);
    expect((await local.call('PATCH', `/transform/v1/workflows/${id}`, { name: 'mine' })).status).toBe(200);
    expect((await remote.call('PATCH', `/transform/v1/workflows/${id}`, { name: 'theirs' })).status).toBe(200);

    await local.service.sync.syncNow(local.companyKey);
    const [c] = await conflicts(local);
    expect(c).toMatchObject({ kind: 'workflow', record_id: id });
    expect(c.loser.definition.name).toBe('mine');
    const current = (await local.call('GET', `/transform/v1/workflows/${id}`)).body;
    expect(current.name).toBe('theirs');
    const older = (await local.call('GET', `/transform/v1/workflows/${id}?version=${Number(current.version) - 1}`)).body;
    expect(older.name).toBe('mine');
  });
});
