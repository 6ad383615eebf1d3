import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { attach, connect, instancesClosedAfterEach, putEntry, sha256, sync, type Instance } from './sync-helpers.ts';

/**
 * Files of several MiB through a laptop's own sync client, both ways: it sends them encoded a
 * part at a time and reads them decoded a part at a time (remote-client.ts), so what arrives
 * must be the same bytes; a file damaged on the laptop's disk is never sent under its name.
 */
const instances = instancesClosedAfterEach();

const BIG = 9 * 1024 * 1024 + 5;
const download = async (t: Instance, entryId: string, fileId: string) => {
  const res = await fetch(`${t.url}/silo/v1/entries/${entryId}/files/${fileId}`, { headers: { authorization: `Bearer ${t.token}` } });
  expect(res.status).toBe(200);
  return Buffer.from(await res.arrayBuffer());
};
const parked = async (t: Instance) => (await t.call('GET', '/sync/v1/parked')).body.list as any[];

describe("a laptop's sync with large files", () => {
  it('pushes and pulls them whole, beside small ones', async () => {
    const [local, remote] = await instances('laptop', 'remote');
    await connect(local, remote);
    const mine = await putEntry(local);
    const pushed = [randomBytes(BIG), randomBytes(300)];
    await attach(local, mine.id, 'scan', pushed[0], 'scan.pdf');
    await attach(local, mine.id, 'note', pushed[1]);
    const theirs = await putEntry(remote);
    const pulled = randomBytes(BIG + 1);
    await attach(remote, theirs.id, 'photo', pulled, 'photo.jpg');

    await sync(local);
    expect((await download(remote, mine.id, 'scan')).equals(pushed[0])).toBe(true);
    expect((await download(remote, mine.id, 'note')).equals(pushed[1])).toBe(true);
    expect((await download(local, theirs.id, 'photo')).equals(pulled)).toBe(true);
    expect(await local.service.blobs.holds(sha256(pulled))).toBe(true);
  }, 60_000);

  it('never sends a file damaged on its own disk: the others go, and its record is parked with the reason', async () => {
    const [local, remote] = await instances('laptop', 'remote');
    await connect(local, remote);
    const e = await putEntry(local);
    const good = randomBytes(BIG);
    const damaged = randomBytes(5000);
    await attach(local, e.id, 'good', good);
    await attach(local, e.id, 'damaged', damaged);
    // A sector gone bad, or a restore that brought back half a file: the bytes no longer hash to their name.
    writeFileSync(local.service.blobs.pathOf(sha256(damaged)), damaged.subarray(0, 2000));

    const status = await local.service.sync.syncNow(local.companyKey);
    expect(status).toMatchObject({ state: 'error', parked: 1 });
    expect(await remote.service.blobs.holds(sha256(damaged))).toBe(false);
    expect((await download(remote, e.id, 'good')).equals(good)).toBe(true);
    const [p] = await parked(local);
    expect(p).toMatchObject({ direction: 'push', kind: 'attachment', record_id: `${e.id}:damaged` });
    expect(p.error.message).toMatch(/bytes are not here/);
  }, 60_000);
});
