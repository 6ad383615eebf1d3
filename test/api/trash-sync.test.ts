import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { attach, connect, putEntry, sha256, snapshot, startInstance, sync, trashedEntry, type Instance } from './sync-helpers.ts';

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

const trashIds = async (t: Instance) => ((await t.call('GET', '/silo/v1/trash?limit=100')).body.list as any[]).map((i) => i.entry_id + (i.file_id ? `:${i.file_id}` : ''));

describe('the trash over sync', () => {
  it('an entry trashed on one instance is in the trash of the other; restored there, it is back on both', async () => {
    const { local, remote } = await pair();
    const e = await putEntry(local, { tags: ['kept'] });
    const bytes = randomBytes(300);
    await attach(local, e.id, 'scan', bytes, 'scan.pdf');
    await sync(local);

    expect((await local.call('DELETE', `/silo/v1/entries/${e.id}`)).status).toBe(200);
    await sync(local);
    const there = await trashedEntry(remote, e.id);
    expect(there).toMatchObject({ tags: ['kept'], attachments: [expect.objectContaining({ id: 'scan', hash: sha256(bytes) })] });
    expect(await trashIds(remote)).toContain(e.id);
    // Who trashed it, as the remote saw it: a change synced from this laptop.
    const trashedVersion = (await remote.call('GET', `/silo/v1/entries/${e.id}/versions?limit=1`)).body.list[0];
    expect(trashedVersion).toMatchObject({ action: 'trashed', actor: { via: 'sync', id: local.service.instanceId, name: expect.stringContaining('pushed with') } });
    const localTrashed = (await local.call('GET', `/silo/v1/entries/${e.id}/versions?limit=1`)).body.list[0];
    expect(localTrashed).toMatchObject({ action: 'trashed', actor: { via: 'http' } });

    expect((await remote.call('POST', `/silo/v1/entries/${e.id}/restore`)).status).toBe(200);
    await sync(local);
    const back = (await local.call('GET', `/silo/v1/entries/${e.id}`)).body;
    expect(back).toMatchObject({ tags: ['kept'], attachments: [expect.objectContaining({ hash: sha256(bytes) })] });
    expect((await local.call('GET', `/silo/v1/entries/${e.id}/versions?limit=1`)).body.list[0]).toMatchObject({
      action: 'restored',
      actor: { via: 'sync', id: remote.service.instanceId },
    });
    expect(await trashIds(local)).not.toContain(e.id);
    expect(await snapshot(local)).toEqual(await snapshot(remote));
  });

  it('a file trashed on one instance waits in the trash of the other; restored, it is back on both', async () => {
    const { local, remote } = await pair();
    const e = await putEntry(local);
    const bytes = randomBytes(400);
    await attach(local, e.id, 'scan', bytes, 'scan.pdf');
    await sync(local);

    expect((await local.call('DELETE', `/silo/v1/entries/${e.id}/files/scan`)).status).toBe(200);
    await sync(local);
    expect((await remote.call('GET', `/silo/v1/entries/${e.id}`)).body.attachments).toEqual([]);
    expect(await trashIds(remote)).toContain(`${e.id}:scan`);

    expect((await local.call('POST', `/silo/v1/entries/${e.id}/files/scan/restore`)).status).toBe(200);
    await sync(local);
    expect((await remote.call('GET', `/silo/v1/entries/${e.id}`)).body.attachments.map((a: any) => a.hash)).toEqual([sha256(bytes)]);
    expect(await trashIds(remote)).not.toContain(`${e.id}:scan`);
    expect(await trashIds(local)).not.toContain(`${e.id}:scan`);
    expect(await snapshot(local)).toEqual(await snapshot(remote));
  });

  it('a purge deletes the entry for good on both', async () => {
    const { local, remote } = await pair();
    const e = await putEntry(local);
    await sync(local);
    await local.call('DELETE', `/silo/v1/entries/${e.id}`);
    await sync(local);
    expect(await trashIds(remote)).toContain(e.id);

    expect((await local.call('POST', '/silo/v1/trash/purge', { items: [{ kind: 'entry', id: e.id }] })).body).toEqual({ purged: 1 });
    await sync(local);
    for (const t of [local, remote]) {
      expect(await trashIds(t)).not.toContain(e.id);
      expect((await t.call('GET', `/silo/v1/trash/entries/${e.id}`)).status).toBe(404);
      expect((await t.call('GET', `/silo/v1/entries/${e.id}/versions`)).status).toBe(404);
    }
    const purged = (await remote.call('GET', `/silo/v1/audit?target_id=${e.id}&action=entry.purged`)).body.list;
    expect(purged).toEqual([expect.objectContaining({ via: 'sync' })]);
  });
});
