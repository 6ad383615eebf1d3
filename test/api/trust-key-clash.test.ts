import { afterEach, describe, expect, it } from 'vitest';
import { connect, putEntry, snapshot, startInstance, sync, trashedEntry, type Instance } from './sync-helpers.ts';

let open: Instance[] = [];
afterEach(async () => {
  await Promise.all(open.map((i) => i.close()));
  open = [];
});

/** A remote and two laptops that each stored an entry under the key K-1 while apart; the first has synced. */
async function clash() {
  const [remote, first, second] = await Promise.all([startInstance({ remote: true }), startInstance(), startInstance()]);
  open.push(remote, first, second);
  await connect(first, remote);
  await connect(second, remote);
  const theirs = await putEntry(first, { key: 'K-1' });
  const mine = await putEntry(second, { key: 'K-1' });
  await sync(first);
  return { remote, first, second, theirs, mine };
}

const get = async (t: Instance, id: string) => (await t.call('GET', `/silo/v1/entries/${id}`)).body;

async function resolve(t: Instance, id: string, body: unknown) {
  const res = await t.call('POST', `/sync/v1/conflicts/${id}/resolve`, body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

async function everyoneSynced(remote: Instance, ...laptops: Instance[]) {
  for (let round = 0; round < 2; round++) for (const t of laptops) expect(await sync(t)).toMatchObject({ state: 'synced', parked: 0, conflicts: 0, pending: 0 });
  for (const t of laptops) expect(await snapshot(t)).toEqual(await snapshot(remote));
}

describe('the same key created on two laptops', () => {
  it('is a key clash to resolve, not an error: both entries shown, nothing parked; renaming mine keeps both', async () => {
    const { remote, first, second, theirs, mine } = await clash();

    const status = await second.service.sync.syncNow(second.companyKey);
    expect(status.last_error).toBeUndefined();
    expect(status).toMatchObject({ state: 'conflicts', conflicts: 1, parked: 0 });
    const list = (await second.call('GET', '/sync/v1/conflicts')).body.list;
    expect(list).toEqual([
      expect.objectContaining({ kind: 'entry', reason: 'key-clash', record_id: theirs.id, other_entry_id: mine.id, loser: expect.objectContaining({ id: theirs.id, key: 'K-1' }) }),
    ]);
    // a second sync changes nothing: the clash waits, and is not turned into an error
    expect(await second.service.sync.syncNow(second.companyKey)).toMatchObject({ state: 'conflicts', conflicts: 1, parked: 0 });

    const done = await resolve(second, list[0].id, { rename: { which: 'mine', key: 'K-1-second' } });
    expect(done).toMatchObject({ resolution: 'rename-mine', resolved_at: expect.any(String) });
    expect((await get(second, mine.id)).key).toBe('K-1-second');
    expect((await get(second, theirs.id)).key).toBe('K-1');
    await everyoneSynced(remote, second, first);
    expect((await get(first, mine.id)).key).toBe('K-1-second');
  });

  it('renaming theirs sends the new key back to the remote; mine keeps the key', async () => {
    const { remote, first, second, theirs, mine } = await clash();
    await second.service.sync.syncNow(second.companyKey);
    const [c] = (await second.call('GET', '/sync/v1/conflicts')).body.list;
    await resolve(second, c.id, { rename: { which: 'theirs', key: 'K-1-first' } });
    await everyoneSynced(remote, second, first);
    for (const t of [remote, first, second]) {
      expect((await get(t, theirs.id)).key).toBe('K-1-first');
      expect((await get(t, mine.id)).key).toBe('K-1');
    }
  });

  it('merging keeps one entry under the key and moves the other to the trash, without its key: no work is deleted', async () => {
    const { remote, first, second, theirs, mine } = await clash();
    await second.service.sync.syncNow(second.companyKey);
    const [c] = (await second.call('GET', '/sync/v1/conflicts')).body.list;
    // a rename onto a key in use is refused, and changes nothing
    expect((await second.call('POST', `/sync/v1/conflicts/${c.id}/resolve`, { rename: { which: 'mine', key: 'K-1' } })).status).toBe(422);
    await resolve(second, c.id, { keep: 'remote' });
    await everyoneSynced(remote, second, first);
    for (const t of [remote, first, second]) {
      expect(await get(t, theirs.id)).toMatchObject({ key: 'K-1' });
      const kept = await trashedEntry(t, mine.id);
      expect(kept.key).toBeUndefined();
      expect(kept.data.doc.code).toBe(mine.data.doc.code);
    }
  });

  it('goes away by itself when the other entry is gone before anyone resolves it', async () => {
    const { remote, first, second, theirs, mine } = await clash();
    await second.service.sync.syncNow(second.companyKey);
    // a tool removes the remote's entry (Silodesk's own API deletes no entries)
    const version = (await remote.service.db.sqlFirst<{ version: number }>(`SELECT version FROM sync_changes WHERE record_id = ?`, [theirs.id]))!.version;
    const gone = await remote.call('PUT', `/sync/v1/records/entry/${theirs.id}`, { origin: '0190c1a0-6666-7000-8000-000000000001', base_version: version, deleted: true });
    expect(gone.status, JSON.stringify(gone.body)).toBe(200);
    await everyoneSynced(remote, second, first);
    expect((await second.call('GET', '/sync/v1/conflicts?all=true')).body.list[0]).toMatchObject({ reason: 'key-clash', resolution: 'superseded' });
    expect((await get(remote, mine.id)).key).toBe('K-1');
  });
});
