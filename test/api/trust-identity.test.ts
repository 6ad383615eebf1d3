import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { v4 as uuidv4 } from 'uuid';
import { afterEach, describe, expect, it } from 'vitest';
import { createCompany } from '../../src-main/core/access/companies.ts';
import { createToken } from '../../src-main/core/access/tokens.ts';
import { signCompactEs256 } from '../../src-main/core/keys/jws.ts';
import { chainHashOf } from '../../src-main/core/sequence/chain.ts';
import {
  connect, copyDataDir, createSeries, issue, patch, putEntry, snapshot, startInstance, sync, verifySeries, type Instance,
} from './sync-helpers.ts';

let open: Instance[] = [];
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(open.map((i) => i.close()));
  open = [];
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** n instances: the first is the remote, the others laptops. */
async function instances(n: number): Promise<Instance[]> {
  const list = await Promise.all(Array.from({ length: n }, (_, i) => startInstance({ remote: i === 0 })));
  open.push(...list);
  return list;
}

/** A P-256 key pair nobody paired: what an attacker signs with. */
function attackerKey() {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const kid = uuidv4();
  const jwk = { ...(publicKey.export({ format: 'jwk' }) as { kty: 'EC'; crv: 'P-256'; x: string; y: string }), kid, alg: 'ES256' as const, use: 'sig' as const };
  return { privateKey, kid, jwk };
}

async function backupOf(t: Instance): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'silodesk-backup-'));
  dirs.push(dir);
  const file = join(dir, 'silodesk.db');
  await t.service.db.sqlite!.backup(file);
  return file;
}

const codes = async (t: Instance, seriesId: string) =>
  (await t.service.db.sql<{ code: string }>('SELECT code FROM series_entries WHERE series_id = ? ORDER BY idx', [seriesId])).map((r) => r.code);

describe('keys and issuers bound to identity', () => {
  it('only the owner pairs an instance; no other token registers keys or speaks for it, so a forged chain is refused and the real issuer is not', async () => {
    const [remote, laptop, third] = await instances(3);
    await connect(laptop, remote);
    await connect(third, remote);
    const series = await createSeries(laptop, 'FA');
    const first = await issue(laptop, series.id);
    await sync(laptop);
    const laptopId = laptop.service.instanceId;

    // An ordinary user token of the remote company, and the owner of another company there.
    const user = (await createToken(remote.service.db, remote.companyKey, 'user', 'clerk')).secret;
    const companyB = await createCompany(remote.service.db, 'B');
    const ownerB = (await createToken(remote.service.db, companyB.key, 'owner', 'owner of B')).secret;
    const forged = attackerKey();

    // a user token can neither add keys for the laptop, nor pair it, nor present itself as it
    expect((await remote.call('PUT', '/sync/v1/keys', { instance_id: laptopId, keys: [forged.jwk] }, user)).status).toBe(403);
    expect((await remote.call('PUT', `/sync/v1/peers/${laptopId}`, { keys: [forged.jwk] }, user)).status).toBe(403);
    const claim = { instance_id: laptopId, keys: [forged.jwk], acknowledged: { counter: 0, nonce: '' }, next: { counter: 1, nonce: 'x' } };
    expect((await remote.call('POST', '/sync/v1/identity', claim, user)).status).toBe(403);
    // the owner of B may pair whatever it likes in B: the keys count in B only
    expect((await remote.call('PUT', `/sync/v1/peers/${laptopId}`, { keys: [forged.jwk] }, ownerB)).status).toBe(200);
    const keysInA = (await remote.call('GET', '/sync/v1/keys', undefined, user)).body.instances.flatMap((i: any) => i.keys.map((k: any) => k.kid));
    expect(keysInA).not.toContain(forged.kid);

    // a second entry of the laptop's series, signed with the attacker's key as if by the laptop
    const entryId = uuidv4();
    const at = new Date().toISOString();
    const payload = {
      series_id: series.id, id: entryId, index: 2, code: 'FA-0002', previous_id: first.id, prev: chainHashOf(first.sigs[0]), meta: {}, at, iss: laptopId,
    };
    const record = { id: entryId, series_id: series.id, index: 2, code: 'FA-0002', meta: {}, previous_id: first.id, sigs: [signCompactEs256(forged.privateKey, forged.kid, payload)], created_at: at };
    const change = { kind: 'series_entry', id: entryId, base_version: null, record };
    // under the laptop's origin: that origin is the laptop's token's alone
    expect((await remote.call('POST', '/sync/v1/records', { origin: laptopId, changes: [change] }, user)).status).toBe(403);
    // under any other origin: the signature does not verify with the keys the company holds for the laptop
    const other = await remote.call('POST', '/sync/v1/records', { origin: uuidv4(), changes: [change] }, user);
    expect(other.body.results[0]).toMatchObject({ status: 'error', error: { key: 'validation' } });
    expect(other.body.results[0].error.message).toMatch(/refused/);

    // the real issuer numbers on undisturbed, and a third instance verifies the one true chain
    const second = await issue(laptop, series.id);
    expect(second.code).toBe('FA-0002');
    const status = await sync(laptop);
    expect(status).toMatchObject({ state: 'synced', parked: 0, forks: 0 });
    await sync(third);
    for (const t of [remote, third]) expect(await verifySeries(t, series.id)).toEqual({ valid: true, count: 2 });
    expect(await codes(third, series.id)).toEqual(['FA-0001', 'FA-0002']);
    expect((await remote.call('GET', '/sync/v1/peers')).body.list).toEqual([
      expect.objectContaining({ instance_id: laptopId, keys: laptop.service.keys.jwks().keys }),
      expect.objectContaining({ instance_id: third.service.instanceId }),
    ]);
  });
});

describe('instance identity survives restore and copy', () => {
  it('a laptop restored from a backup is found out, takes a new id, pulls everything, and numbers after the remote\'s head', async () => {
    const [remote, laptop] = await instances(2);
    await connect(laptop, remote);
    const series = await createSeries(laptop, 'FA');
    for (let i = 0; i < 3; i++) await issue(laptop, series.id);
    const e1 = await putEntry(laptop);
    await sync(laptop);
    const backup = await backupOf(laptop);

    // after the backup: one more number, an edit, a new entry; all synced
    await issue(laptop, series.id, { invoice: 'X' });
    await patch(laptop, e1.id, { tags: ['after-backup'] });
    const e3 = await putEntry(laptop);
    await sync(laptop);
    const oldId = laptop.service.instanceId;

    await laptop.restart(backup);
    expect(laptop.service.instanceId).toBe(oldId);
    expect(await codes(laptop, series.id)).toEqual(['FA-0001', 'FA-0002', 'FA-0003']);

    const lines: string[] = [];
    laptop.service.log = (line) => lines.push(line);
    const status = await sync(laptop);
    expect(status).toMatchObject({ state: 'synced', conflicts: 0, parked: 0, forks: 0, held_series: 0 });
    expect(laptop.service.instanceId).not.toBe(oldId);
    // The operator is told, naming the company by its public id (never the key its rows are stored under).
    expect(lines).toContainEqual(expect.stringMatching(new RegExp(`^sync ${laptop.companyId}: the remote has acknowledged more of instance ${oldId}`)));
    // everything the remote has, the newer versions included
    expect((await laptop.call('GET', `/silo/v1/entries/${e3.id}`)).status).toBe(200);
    expect((await laptop.call('GET', `/silo/v1/entries/${e1.id}`)).body.tags).toEqual(['after-backup']);
    expect(await codes(laptop, series.id)).toEqual(['FA-0001', 'FA-0002', 'FA-0003', 'FA-0004']);
    expect(await snapshot(laptop)).toEqual(await snapshot(remote));

    // the next number follows the remote's head: FA-0004 is never issued twice
    const next = await issue(laptop, series.id);
    expect(next.code).toBe('FA-0005');
    await sync(laptop);
    expect(await verifySeries(remote, series.id)).toEqual({ valid: true, count: 5 });
    expect(await verifySeries(laptop, series.id)).toEqual({ valid: true, count: 5 });
    expect((await remote.call('GET', '/sync/v1/peers')).body.list).toEqual([
      expect.objectContaining({ instance_id: oldId }),
      expect.objectContaining({ instance_id: laptop.service.instanceId, successor_of: oldId }),
    ]);
    expect(await snapshot(laptop)).toEqual(await snapshot(remote));
  });

  it('a restored laptop that numbered before it synced: the fork is reported with both chains kept, and numbering waits', async () => {
    const [remote, laptop] = await instances(2);
    await connect(laptop, remote);
    const series = await createSeries(laptop, 'FA');
    for (let i = 0; i < 3; i++) await issue(laptop, series.id);
    await sync(laptop);
    const backup = await backupOf(laptop);
    const issued = await issue(laptop, series.id, { invoice: 'first' });
    await sync(laptop);

    await laptop.restart(backup);
    // offline, nobody can know yet: the restored laptop takes FA-0004 again
    const again = await issue(laptop, series.id, { invoice: 'second' });
    expect(again.code).toBe('FA-0004');

    const status = await laptop.service.sync.syncNow(laptop.companyKey);
    expect(status).toMatchObject({ state: 'error', forks: 1 });
    const forks = (await laptop.call('GET', '/sync/v1/forks')).body.list;
    expect(forks).toEqual([expect.objectContaining({ series_id: series.id, index: 4, local_entry_id: again.id, other_entry_id: issued.id, direction: 'pull' })]);
    expect(forks[0].other).toMatchObject({ code: 'FA-0004', meta: { invoice: 'first' } });
    const remoteForks = (await remote.call('GET', '/sync/v1/forks')).body.list;
    expect(remoteForks).toEqual([expect.objectContaining({ index: 4, local_entry_id: issued.id, other_entry_id: again.id, direction: 'push' })]);
    // each side keeps a whole, valid chain of its own
    expect(await verifySeries(remote, series.id)).toEqual({ valid: true, count: 4 });
    expect(await verifySeries(laptop, series.id)).toEqual({ valid: true, count: 4 });
    // and the laptop numbers no further until someone sorts it out
    const refused = await laptop.call('PUT', `/sequence/v1/series/${series.id}/entries/${uuidv4()}`, {});
    expect(refused.status).toBe(409);
    expect(refused.body.message).toMatch(/on hold .*forked/);
    expect((await laptop.call('GET', `/sequence/v1/series/${series.id}`)).body.hold).toMatchObject({ reason: 'fork' });
  });

  it('a copied data folder: the copy that syncs second takes a new id, and all three instances converge on one chain', async () => {
    const [remote, laptop] = await instances(2);
    await connect(laptop, remote);
    const series = await createSeries(laptop, 'FA');
    for (let i = 0; i < 3; i++) await issue(laptop, series.id);
    await putEntry(laptop);
    await sync(laptop);
    const copyDir = await copyDataDir(laptop);
    const copy = await startInstance({ dataDir: copyDir });
    open.push(copy);
    expect(copy.service.instanceId).toBe(laptop.service.instanceId);

    // both work apart; the original syncs first
    const a1 = await putEntry(laptop);
    await issue(laptop, series.id);
    await sync(laptop);
    const a2 = await putEntry(copy);
    const status = await sync(copy);
    expect(status).toMatchObject({ conflicts: 0, parked: 0 });
    expect(copy.service.instanceId).not.toBe(laptop.service.instanceId);
    expect((await copy.call('GET', `/silo/v1/entries/${a1.id}`)).status).toBe(200);
    expect(await codes(copy, series.id)).toEqual(['FA-0001', 'FA-0002', 'FA-0003', 'FA-0004']);
    expect((await copy.call('PUT', `/sequence/v1/series/${series.id}/entries/${uuidv4()}`, {})).body.code).toBe('FA-0005');
    await sync(copy);

    const back = await sync(laptop);
    expect(back).toMatchObject({ state: 'synced', parked: 0, forks: 0 });
    expect((await laptop.call('GET', `/silo/v1/entries/${a2.id}`)).status).toBe(200);
    expect((await laptop.call('PUT', `/sequence/v1/series/${series.id}/entries/${uuidv4()}`, {})).body.code).toBe('FA-0006');
    await sync(laptop);
    await sync(copy);
    for (const t of [remote, laptop, copy]) {
      expect(await verifySeries(t, series.id)).toEqual({ valid: true, count: 6 });
      expect(await codes(t, series.id)).toEqual(['FA-0001', 'FA-0002', 'FA-0003', 'FA-0004', 'FA-0005', 'FA-0006']);
    }
    expect(await snapshot(laptop)).toEqual(await snapshot(remote));
    expect(await snapshot(copy)).toEqual(await snapshot(remote));
  });

  it('is not fooled by a sync whose identity answer was lost: the same proposal is accepted again, the id stays', async () => {
    const [remote, laptop] = await instances(2);
    await connect(laptop, remote);
    await putEntry(laptop);
    await sync(laptop);
    const id = laptop.service.instanceId;
    // the remote takes the next proposal, then the laptop dies before it writes the answer down:
    // replayed here by presenting the stored proposal straight to the remote
    const row = (await laptop.service.db.sqlFirst<any>('SELECT * FROM sync_identity'))!;
    const nonce = 'proposal-taken-by-the-remote';
    await laptop.service.db.sqlRun('UPDATE sync_identity SET next_nonce = ?', [nonce]);
    const claim = {
      instance_id: id, keys: laptop.service.keys.jwks().keys,
      acknowledged: { counter: row.ack_counter, nonce: row.ack_nonce }, next: { counter: row.ack_counter + 1, nonce },
    };
    expect((await remote.call('POST', '/sync/v1/identity', claim)).body).toMatchObject({ status: 'ok' });
    for (let i = 0; i < 3; i++) {
      await putEntry(laptop);
      expect(await sync(laptop)).toMatchObject({ state: 'synced' });
      expect(laptop.service.instanceId).toBe(id);
    }
    expect(await snapshot(laptop)).toEqual(await snapshot(remote));
  });
});
