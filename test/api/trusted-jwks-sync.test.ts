import { generateKeyPairSync } from 'node:crypto';
import { v4 as uuidv4, v7 as uuidv7 } from 'uuid';
import { describe, expect, it } from 'vitest';
import { createToken } from '../../src-main/core/access/tokens.ts';
import { signEnvelope } from '../../src-main/core/gobl/sign/index.ts';
import { oneLineInvoice } from './gobl-helpers.ts';
import { connect, type Instance, instancesClosedAfterEach, sync } from './sync-helpers.ts';

/**
 * A company's trusted signers (their JWKS) sync like any record: a document signed
 * by a signer the owner trusted on one instance verifies on every instance of the
 * company, a signer no longer trusted stops verifying everywhere, and only an owner
 * changes the list, wherever the change is made.
 */
const instances = instancesClosedAfterEach();

/** A signer outside Silodesk (a tax authority, a partner's GOBL install): its key pair and public keys. */
function outsideSigner() {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const kid = uuidv4();
  const keys = [{ ...publicKey.export({ format: 'jwk' }), kid, alg: 'ES256', use: 'sig' }];
  return { keys, sign: (envelope: any) => signEnvelope(envelope, { kid, privateKey }) as any };
}

/** A built, valid, unsigned envelope under a new v7 uuid (GOBL signs only time-based uuids). */
async function builtEnvelope(t: Instance, code: string): Promise<any> {
  const res = await t.call('POST', '/silo/v1/gobl/build', { data: { $schema: 'https://gobl.org/draft-0/envelope', head: { uuid: uuidv7() }, doc: oneLineInvoice(code) }, envelop: true });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}

const signers = async (t: Instance, token?: string) => {
  const res = await t.call('GET', '/silo/v1/trusted-jwks', undefined, token);
  expect(res.status).toBe(200);
  return res.body.list.map(({ id, name, keys }: any) => ({ id, name, keys }));
};
const trust = (t: Instance, id: string, name: string, keys: unknown[]) => t.call('PUT', `/silo/v1/trusted-jwks/${id}`, { name, keys });
const putSigned = (t: Instance, envelope: any) => t.call('PUT', `/silo/v1/entries/${envelope.head.uuid}`, { data: envelope });

describe('trusted signers over sync', () => {
  it('trusted on a laptop: on the remote and another laptop after sync, with the documents it signed; untrusted on the remote: gone everywhere', async () => {
    const [remote, laptop, other] = await instances('remote', 'laptop', 'laptop');
    await connect(laptop, remote);
    await connect(other, remote);
    const signer = outsideSigner();
    const id = uuidv4();
    expect((await trust(laptop, id, 'Tax office', signer.keys)).status).toBe(200);
    const signed = signer.sign(await builtEnvelope(laptop, 'TAX-1'));
    expect((await putSigned(laptop, signed)).status).toBe(200);
    // Neither the remote nor the other laptop would take the document on its own.
    expect((await putSigned(other, signer.sign(await builtEnvelope(other, 'TAX-0')))).status).toBe(422);

    // The signer goes out before the document it verifies, in the same sync.
    expect(await sync(laptop)).toMatchObject({ state: 'synced', parked: 0, conflicts: 0 });
    const trusted = await signers(laptop);
    expect(trusted).toEqual([{ id, name: 'Tax office', keys: [expect.objectContaining({ kid: signer.keys[0].kid, x: signer.keys[0].x })] }]);
    expect(await signers(remote)).toEqual(trusted);
    expect((await remote.call('GET', `/silo/v1/entries/${signed.head.uuid}`)).body).toMatchObject({ signed: true, data: { sigs: signed.sigs } });
    // A laptop that pulls verifies the document against the signer pulled just before it.
    expect(await sync(other)).toMatchObject({ state: 'synced', parked: 0 });
    expect(await signers(other)).toEqual(trusted);
    expect((await other.call('GET', `/silo/v1/entries/${signed.head.uuid}`)).body).toMatchObject({ signed: true, data: { sigs: signed.sigs } });
    expect((await putSigned(other, signer.sign(await builtEnvelope(other, 'TAX-2')))).status).toBe(200);

    // Renamed on the remote: renamed on the laptop.
    expect((await trust(remote, id, 'Tax office (Madrid)', signer.keys)).status).toBe(200);
    await sync(laptop);
    expect((await signers(laptop)).map((s: any) => s.name)).toEqual(['Tax office (Madrid)']);

    // No longer trusted on the remote: gone on the laptop, whose new documents by that signer are refused again.
    expect((await remote.call('DELETE', `/silo/v1/trusted-jwks/${id}`)).body).toEqual({ id, deleted: true });
    await sync(laptop);
    expect(await signers(laptop)).toEqual([]);
    const refused = await putSigned(laptop, signer.sign(await builtEnvelope(laptop, 'TAX-3')));
    expect(refused.status).toBe(422);
    expect(refused.body.fields['$.data.sigs[0]']).toContain('no key this company trusts');
    // What was stored signed stays signed.
    expect((await laptop.call('GET', `/silo/v1/entries/${signed.head.uuid}`)).body.signed).toBe(true);
  });

  it('a key added to a signer after it signed documents: the signer still goes out first, and a laptop pulling the documents first takes them once the signer arrives', async () => {
    const [remote, laptop, fresh] = await instances('remote', 'laptop', 'laptop');
    await connect(laptop, remote);
    await connect(fresh, remote);
    const [before, rotated] = [outsideSigner(), outsideSigner()];
    const id = uuidv4();
    expect((await trust(laptop, id, 'Tax office', before.keys)).status).toBe(200);
    const signed = before.sign(await builtEnvelope(laptop, 'ROT-1'));
    expect((await putSigned(laptop, signed)).status).toBe(200);
    // The signer rotates: its new key is added, and the signer moves after the document in the log.
    expect((await trust(laptop, id, 'Tax office', [...before.keys, ...rotated.keys])).status).toBe(200);
    const log = await laptop.service.db.sql<{ kind: string }>(`SELECT kind FROM sync_changes WHERE company_id = ? ORDER BY seq`, [laptop.companyKey]);
    expect(log.map((r) => r.kind)).toEqual(['entry', 'trusted_jwks']);

    expect(await sync(laptop)).toMatchObject({ state: 'synced', parked: 0 });
    expect((await remote.call('GET', `/silo/v1/entries/${signed.head.uuid}`)).body).toMatchObject({ signed: true });
    // Rotated again, on the remote: its feed now serves the document before the signer that verifies it.
    const again = outsideSigner();
    expect((await trust(remote, id, 'Tax office', [...before.keys, ...rotated.keys, ...again.keys])).status).toBe(200);
    const feed = (await remote.call('GET', '/sync/v1/changes')).body.changes.map((c: any) => c.kind);
    expect(feed).toEqual(['entry', 'trusted_jwks']);
    expect(await sync(fresh)).toMatchObject({ state: 'synced', parked: 0 });
    expect((await fresh.call('GET', `/silo/v1/entries/${signed.head.uuid}`)).body).toMatchObject({ signed: true, data: { sigs: signed.sigs } });
    expect((await signers(fresh)).map((s: any) => s.keys.length)).toEqual([3]);
    expect((await fresh.call('GET', '/sync/v1/parked')).body.list).toEqual([]);
  });

  it('changed on both sides: the remote wins, the laptop keeps its version in the conflict, and "keep mine" sends it back', async () => {
    const [remote, laptop] = await instances('remote', 'laptop');
    await connect(laptop, remote);
    const [mine, theirs] = [outsideSigner(), outsideSigner()];
    const id = uuidv4();
    expect((await trust(laptop, id, 'Partner', mine.keys)).status).toBe(200);
    await sync(laptop);
    expect((await trust(remote, id, 'Partner (remote)', theirs.keys)).status).toBe(200);
    expect((await trust(laptop, id, 'Partner (laptop)', mine.keys)).status).toBe(200);

    expect(await sync(laptop)).toMatchObject({ conflicts: 1 });
    expect((await signers(laptop)).map((s: any) => s.name)).toEqual(['Partner (remote)']);
    const [conflict] = (await laptop.call('GET', '/sync/v1/conflicts')).body.list;
    expect(conflict).toMatchObject({ kind: 'trusted_jwks', record_id: id, loser: { name: 'Partner (laptop)' } });

    expect((await laptop.call('POST', `/sync/v1/conflicts/${conflict.id}/resolve`, { keep: 'mine' })).status).toBe(200);
    await sync(laptop);
    for (const t of [laptop, remote]) {
      expect(await signers(t)).toEqual([{ id, name: 'Partner (laptop)', keys: [expect.objectContaining({ x: mine.keys[0].x })] }]);
    }
  });

  it('only an owner changes the list: a laptop syncing with a user token pulls signers but its changes are refused and parked', async () => {
    const [remote, laptop] = await instances('remote', 'laptop');
    const user = await createToken(remote.service.db, remote.companyKey, 'user', 'clerk');
    // The remote's owner pairs the laptop with the user token (a user token cannot pair itself).
    const paired = await remote.call('PUT', `/sync/v1/peers/${laptop.service.instanceId}`, { keys: laptop.service.keys.jwks().keys, token_id: user.id });
    expect(paired.status, JSON.stringify(paired.body)).toBe(200);
    await connect(laptop, remote, user.secret);

    const byOwner = outsideSigner();
    const ownersId = uuidv4();
    expect((await trust(remote, ownersId, 'Chosen by the owner', byOwner.keys)).status).toBe(200);
    await sync(laptop);
    expect((await signers(laptop)).map((s: any) => s.id)).toEqual([ownersId]);

    // The laptop's own owner trusts another signer locally: the remote refuses it from a user token.
    const local = outsideSigner();
    const localId = uuidv4();
    expect((await trust(laptop, localId, 'Laptop only', local.keys)).status).toBe(200);
    const status = await laptop.service.sync.syncNow(laptop.companyKey);
    expect(status).toMatchObject({ state: 'error', parked: 1 });
    const [parked] = (await laptop.call('GET', '/sync/v1/parked')).body.list;
    expect(parked).toMatchObject({ direction: 'push', kind: 'trusted_jwks', record_id: localId, error: { key: 'forbidden' } });
    expect((await signers(remote)).map((s: any) => s.id)).toEqual([ownersId]);

    // Nor may the user token push one, or delete the owner's, directly.
    const record = { id: localId, name: 'Laptop only', keys: local.keys, created_at: new Date().toISOString() };
    expect((await remote.call('PUT', `/sync/v1/records/trusted_jwks/${localId}`, { origin: uuidv4(), base_version: null, record }, user.secret)).status).toBe(403);
    const deletion = await remote.call('PUT', `/sync/v1/records/trusted_jwks/${ownersId}`, { origin: uuidv4(), base_version: 1, deleted: true }, user.secret);
    expect(deletion.status).toBe(403);
    expect((await signers(remote)).map((s: any) => s.id)).toEqual([ownersId]);
    // The owner may.
    const owner = await remote.call('PUT', `/sync/v1/records/trusted_jwks/${localId}`, { origin: uuidv4(), base_version: null, record });
    expect(owner.status, JSON.stringify(owner.body)).toBe(200);
    expect((await signers(remote)).map((s: any) => s.id).sort()).toEqual([ownersId, localId].sort());
  });

  it('a signer record that is not a set of public P-256 keys is refused, pushed or pulled, and never stored', async () => {
    const [remote, laptop] = await instances('remote', 'laptop');
    await connect(laptop, remote);
    const id = uuidv4();
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
    const secret = { ...privateKey.export({ format: 'jwk' }), kid: 'leaked' };
    const push = (keys: unknown[]) =>
      remote.call('PUT', `/sync/v1/records/trusted_jwks/${id}`, { origin: uuidv4(), base_version: null, record: { id, name: 'Bad', keys, created_at: new Date().toISOString() } });

    const leaked = await push([secret]);
    expect(leaked.status).toBe(422);
    expect(leaked.body.fields).toHaveProperty(['$.record.keys[0].d']);
    const offCurve = await push([{ kty: 'EC', crv: 'P-256', x: 'A'.repeat(43), y: 'A'.repeat(43) }]);
    expect(offCurve.status).toBe(422);
    expect((await push([])).status).toBe(422);
    expect(await signers(remote)).toEqual([]);

    // A remote serving one anyway (written behind its API): parked on the laptop, not trusted there.
    const { db } = remote.service;
    await db.tx(async () => {
      const at = new Date().toISOString();
      await db.run(db.q.insertInto('trusted_jwks').values({ company_id: remote.companyKey, id, name: 'Bad', keys: JSON.stringify([secret]), created_at: at, updated_at: at }));
    }, { origin: 'local' });
    const status = await laptop.service.sync.syncNow(laptop.companyKey);
    expect(status).toMatchObject({ state: 'error', parked: 1 });
    const [parked] = (await laptop.call('GET', '/sync/v1/parked')).body.list;
    expect(parked).toMatchObject({ direction: 'pull', kind: 'trusted_jwks', record_id: id, error: { key: 'validation' } });
    expect(parked.error.fields).toHaveProperty(['$.record.keys[0].d']);
    expect(JSON.stringify(parked)).not.toContain(secret.d);
    expect(await signers(laptop)).toEqual([]);
  });
});
