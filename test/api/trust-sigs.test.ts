import { exportJWK, generateKeyPair } from 'jose';
import { generateKeyPairSync } from 'node:crypto';
import { v4 as uuidv4, v7 as uuidv7 } from 'uuid';
import { describe, expect, it } from 'vitest';
import { createToken } from '../../src-main/core/access/tokens.ts';
import { signEnvelope } from '../../src-main/core/gobl/sign/index.ts';
import { oneLineInvoice } from './gobl-helpers.ts';
import { connect, type Instance, instancesClosedAfterEach, sync } from './sync-helpers.ts';

const instances = instancesClosedAfterEach();

/** A built, valid, unsigned envelope under a new v7 uuid (GOBL signs only time-based uuids). */
async function builtEnvelope(t: Instance, code: string): Promise<any> {
  const res = await t.call('POST', '/silo/v1/gobl/build', { data: { $schema: 'https://gobl.org/draft-0/envelope', head: { uuid: uuidv7() }, doc: oneLineInvoice(code) }, envelop: true });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}

/** A signer outside Silodesk (a tax authority, a partner's GOBL install): its key pair and its JWKS. */
async function outsideSigner() {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const kid = uuidv4();
  const jwk = { ...publicKey.export({ format: 'jwk' }), kid, alg: 'ES256', use: 'sig' };
  return { sign: (envelope: any) => signEnvelope(envelope, { kid, privateKey }) as any, jwks: { keys: [jwk] } };
}

const put = (t: Instance, data: any, token?: string) => t.call('PUT', `/silo/v1/entries/${data.head.uuid}`, { data }, token);

describe('signatures are verified on the way in', () => {
  it('PATCH adding a junk signature is refused (422 naming $.data.sigs[0]); the entry stays unsigned and editable', async () => {
    const [t] = await instances('remote');
    const envelope = await builtEnvelope(t, 'SEAL-1');
    expect((await put(t, envelope)).status).toBe(200);
    const id = envelope.head.uuid;

    for (const content_type of ['application/merge-patch+json', 'application/json-patch+json'] as const) {
      const data = content_type === 'application/merge-patch+json' ? { sigs: ['x.y.z'] } : [{ op: 'add', path: '/sigs', value: ['x.y.z'] }];
      const res = await t.call('PATCH', `/silo/v1/entries/${id}`, { content_type, data });
      expect(res.status, JSON.stringify(res.body)).toBe(422);
      expect(res.body.key).toBe('validation');
      expect(Object.keys(res.body.fields)).toEqual(['$.data.sigs[0]']);
    }
    const entry = (await t.call('GET', `/silo/v1/entries/${id}`)).body;
    expect(entry.signed).toBe(false);
    expect(entry.data.sigs).toBeUndefined();
    expect((await t.call('PATCH', `/silo/v1/entries/${id}`, { content_type: 'application/merge-patch+json', data: { doc: { notes: [{ text: 'still editable' }] } } })).status).toBe(200);
  });

  it('a workflow step (silo.modify) cannot seal a document with an unchecked signature either', async () => {
    const [t] = await instances('remote');
    const envelope = await builtEnvelope(t, 'WF-SEAL-1');
    expect((await put(t, envelope)).status).toBe(200);
    const wf = await t.call('PUT', `/transform/v1/workflows/${uuidv7()}`, { name: 'seal', steps: [{ provider: 'silo.modify', config: { merge_patch: { sigs: ['x.y.z'] } } }] });
    expect(wf.status, JSON.stringify(wf.body)).toBe(200);
    const job = await t.call('POST', '/transform/v1/jobs?wait=30', { workflow_id: wf.body.id, silo_entry_id: envelope.head.uuid });
    expect(job.body.status, JSON.stringify(job.body)).toBe('KO');
    expect(JSON.stringify(job.body.intents)).toContain('$.envelope.sigs[0]');
    expect((await t.call('GET', `/silo/v1/entries/${envelope.head.uuid}`)).body).toMatchObject({ signed: false });
  });

  it('PUT, POST and import refuse what no trusted key signed, name each bad signature, and store what this instance signed', async () => {
    const [t, other] = await instances('remote', 'laptop');
    const envelope = await builtEnvelope(t, 'SIG-1');
    // a real signature, but by an instance nobody paired with this one
    const byOther = (await other.call('POST', '/silo/v1/gobl/sign', { data: envelope })).body.data;
    const mine = (await t.call('POST', '/silo/v1/gobl/sign', { data: envelope })).body.data;
    expect(mine.sigs).toHaveLength(1);

    const forged = await put(t, { ...envelope, sigs: [mine.sigs[0], 'x.y.z', byOther.sigs[0]] });
    expect(forged.status).toBe(422);
    expect(forged.body.fields).toEqual({
      '$.data.sigs[1]': expect.stringContaining('is not a compact ES256 JWS'),
      '$.data.sigs[2]': expect.stringContaining('no key this company trusts verifies it'),
    });
    expect((await t.call('POST', '/silo/v1/entries', { data: byOther })).status).toBe(422);
    const imported = await t.call('POST', '/silo/v1/import', { entries: [{ data: byOther }, { data: { ...mine, sigs: ['a.b.c'] } }] });
    expect(imported.status, JSON.stringify(imported.body)).toBe(200);
    expect(imported.body.results.map((r: any) => [r.status, Object.keys(r.error?.fields ?? {})])).toEqual([
      ['error', ['$.data.sigs[0]']],
      ['error', ['$.data.sigs[0]']],
    ]);
    // signed, then the document changed under the signature
    const altered = await put(t, { ...mine, doc: { ...mine.doc, code: 'SIG-2' } });
    expect(altered.status).toBe(422);
    expect(altered.body.fields['$.data.sigs[0]']).toContain('no longer matches');
    expect((await t.call('GET', `/silo/v1/entries/${envelope.head.uuid}`)).status).toBe(404);

    const stored = await put(t, mine);
    expect(stored.status, JSON.stringify(stored.body)).toBe(200);
    expect(stored.body).toMatchObject({ signed: true, state: 'completed' });
  });

  it("a GOBL-signed envelope from an outside signer is stored as signed once the company's owner trusts its JWKS, and only in that company", async () => {
    const [t] = await instances('remote');
    const signer = await outsideSigner();
    const signed = signer.sign(await builtEnvelope(t, 'EXT-1'));
    const refused = await put(t, signed);
    expect(refused.status).toBe(422);
    expect(refused.body.fields['$.data.sigs[0]']).toContain('no key this company trusts');

    const user = (await createToken(t.service.db, t.companyKey, 'user', 'clerk')).secret;
    const jwksId = uuidv4();
    expect((await t.call('PUT', `/silo/v1/trusted-jwks/${jwksId}`, { name: 'Tax office', keys: signer.jwks.keys }, user)).status).toBe(403);
    expect((await t.call('GET', '/silo/v1/trusted-jwks', undefined, user)).status).toBe(403);
    // a private key pasted by mistake is refused, not stored
    const { privateKey } = await generateKeyPair('ES256', { extractable: true });
    const leaked = await t.call('PUT', `/silo/v1/trusted-jwks/${jwksId}`, { name: 'Oops', keys: [await exportJWK(privateKey)] });
    expect(leaked.status).toBe(422);
    expect(leaked.body.fields).toHaveProperty(['$.keys[0].d']);

    // another company of the install trusting it changes nothing here
    const b = await t.call('POST', '/access/v1/companies', { name: 'Client B' });
    expect((await t.call('PUT', `/silo/v1/trusted-jwks/${jwksId}`, { name: 'Tax office', keys: signer.jwks.keys }, b.body.owner_token)).status).toBe(200);
    expect((await put(t, signed)).status).toBe(422);

    const trusted = await t.call('PUT', `/silo/v1/trusted-jwks/${jwksId}`, { name: 'Tax office', keys: signer.jwks.keys });
    expect(trusted.status, JSON.stringify(trusted.body)).toBe(200);
    expect((await t.call('GET', '/silo/v1/trusted-jwks')).body.list).toEqual([expect.objectContaining({ id: jwksId, name: 'Tax office' })]);
    const stored = await put(t, signed);
    expect(stored.status, JSON.stringify(stored.body)).toBe(200);
    expect(stored.body).toMatchObject({ signed: true });
    expect(stored.body.data.sigs).toEqual(signed.sigs);
    // sealed: its document no longer changes
    expect((await t.call('PATCH', `/silo/v1/entries/${signed.head.uuid}`, { content_type: 'application/merge-patch+json', data: { doc: { code: 'EXT-2' } } })).status).toBe(409);

    // no longer trusted: new documents of that signer are refused again, the one stored stays signed
    expect((await t.call('DELETE', `/silo/v1/trusted-jwks/${jwksId}`)).body).toEqual({ id: jwksId, deleted: true });
    expect((await put(t, signer.sign(await builtEnvelope(t, 'EXT-3')))).status).toBe(422);
    expect((await t.call('GET', `/silo/v1/entries/${signed.head.uuid}`)).body.signed).toBe(true);
  });
});

describe('signatures through sync', () => {
  it("a laptop's signed entry is verified by the remote against the laptop's paired keys and reaches another laptop signed; a forged one is refused", async () => {
    const [remote, laptop, other] = await instances('remote', 'laptop', 'laptop');
    await connect(laptop, remote);
    await connect(other, remote);
    const envelope = await builtEnvelope(laptop, 'SYNC-SIG-1');
    const res = await laptop.call('PUT', `/silo/v1/entries/${envelope.head.uuid}`, { data: envelope, sign: true });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await sync(laptop)).toMatchObject({ state: 'synced', parked: 0 });
    expect(await sync(other)).toMatchObject({ state: 'synced', parked: 0 });
    for (const t of [remote, other]) {
      const entry = (await t.call('GET', `/silo/v1/entries/${envelope.head.uuid}`)).body;
      expect(entry).toMatchObject({ signed: true });
      expect(entry.data.sigs).toEqual(res.body.data.sigs);
    }

    // anyone pushing a record with a signature no trusted key made is refused, by the signature's path
    const id = uuidv7();
    const junk = { ...(await builtEnvelope(laptop, 'FORGED-1')), head: { uuid: id } };
    const pushed = await remote.call('PUT', `/sync/v1/records/entry/${id}`, {
      origin: '0190c1a0-7777-7000-8000-000000000001',
      base_version: null,
      record: { id, folder: 'invoices', state: 'completed', tags: [], data: { ...junk, head: { ...envelope.head, uuid: id }, sigs: res.body.data.sigs }, created_at: new Date().toISOString() },
    });
    expect(pushed.status, JSON.stringify(pushed.body)).toBe(422);
    expect(Object.keys(pushed.body.fields)).toEqual(['$.record.data.sigs[0]']);
    expect((await remote.call('GET', `/silo/v1/entries/${id}`)).status).toBe(404);
  });

  it('a document signed by a JWKS the laptop trusts reaches the remote after its signer, and is verified there', async () => {
    const [remote, laptop] = await instances('remote', 'laptop');
    await connect(laptop, remote);
    const signer = await outsideSigner();
    const signed = signer.sign(await builtEnvelope(laptop, 'PARTNER-1'));
    // the signer goes ahead of the documents it signed, so the remote can check them when they come
    expect((await laptop.call('PUT', `/silo/v1/trusted-jwks/${uuidv4()}`, { name: 'Partner', keys: signer.jwks.keys })).status).toBe(200);
    expect((await put(laptop, signed)).status).toBe(200);

    expect(await sync(laptop)).toMatchObject({ state: 'synced', parked: 0, conflicts: 0 });
    expect((await remote.call('GET', '/silo/v1/trusted-jwks')).body.list.map((j: any) => j.name)).toEqual(['Partner']);
    expect((await remote.call('GET', `/silo/v1/entries/${signed.head.uuid}`)).body).toMatchObject({ signed: true });
  });
});
