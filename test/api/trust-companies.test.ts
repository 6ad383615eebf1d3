import { randomBytes } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { v4 as uuidv4, v7 as uuidv7 } from 'uuid';
import { afterEach, describe, expect, it } from 'vitest';
import { ensureDefaultCompany, ensureOwnerTokenFile } from '../../src-main/core/access/bootstrap.ts';
import { createToken } from '../../src-main/core/access/tokens.ts';
import { attach, connect, invoiceDoc, putEntry, sha256, startInstance, type Instance, type Role } from './sync-helpers.ts';
import { openCompany } from './harness.ts';

let open: Instance[] = [];
afterEach(async () => {
  await Promise.all(open.map((i) => i.close()));
  open = [];
});

async function instance(role: Role): Promise<Instance> {
  const t = await startInstance({ remote: role === 'remote' });
  open.push(t);
  return t;
}


const webhookWorkflow = {
  name: 'notify',
  steps: [{ id: uuidv4(), provider: 'webhook', config: { url: 'http://127.0.0.1:9/hook', bearer_token: 'whsec-very-secret' } }],
};

describe('every company is a wall', () => {
  it("an owner of one company cannot list, rename or even find another company", async () => {
    const t = await instance('remote');
    const b = await openCompany(t);
    const listed = await t.call('GET', '/access/v1/companies', undefined, b.owner);
    expect(listed.body.list.map((c: any) => c.id)).toEqual([b.id]);
    const rename = await t.call('PATCH', `/access/v1/companies/${t.companyId}`, { name: 'Taken over' }, b.owner);
    expect(rename.status).toBe(404);
    // the same answer as for a company that does not exist at all
    expect((await t.call('PATCH', `/access/v1/companies/${uuidv4()}`, { name: 'x' }, b.owner)).status).toBe(404);
    // a company it opens itself is its own business: it gets that company's owner token, and still lists only its own
    const c = await t.call('POST', '/access/v1/companies', { name: 'Client C' }, b.owner);
    expect(c.status).toBe(200);
    expect((await t.call('GET', '/access/v1/companies', undefined, b.owner)).body.list.map((x: any) => x.id)).toEqual([b.id]);
    // its own company it manages; the install's owner (api-token) still manages every company
    expect((await t.call('PATCH', `/access/v1/companies/${b.id}`, { name: 'Client B S.L.' }, b.owner)).status).toBe(200);
    expect((await t.call('GET', '/access/v1/companies')).body.list.map((x: any) => x.name)).toEqual(['My company', 'Client B S.L.', 'Client C']);
  });

  it("a file of company A can be neither attached nor read nor probed from company B by naming its hash", async () => {
    const t = await instance('remote');
    const b = await openCompany(t);
    const bytes = randomBytes(4000);
    const hash = sha256(bytes);
    const a = await putEntry(t);
    await attach(t, a.id, 'secret', bytes, 'secret.pdf');

    const entryB = await t.call('PUT', `/silo/v1/entries/${uuidv7()}`, { data: invoiceDoc('B-1') }, b.owner);
    expect(entryB.status, JSON.stringify(entryB.body)).toBe(200);
    const record = { entry_id: entryB.body.id, id: 'stolen', name: 'stolen.pdf', desc: '', mime: 'application/pdf', meta: {}, hash, size: bytes.length, created_at: new Date().toISOString() };
    const steal = await t.call('PUT', `/sync/v1/records/attachment/${entryB.body.id}:stolen`, { origin: uuidv4(), base_version: null, record }, b.owner);
    expect(steal.status).toBe(422);
    // word for word what a hash held by nobody gets: nothing is learnt
    const nowhere = await t.call('PUT', `/sync/v1/records/attachment/${entryB.body.id}:stolen`, { origin: uuidv4(), base_version: null, record: { ...record, hash: sha256('nowhere') } }, b.owner);
    expect(nowhere.status).toBe(422);
    expect(steal.body).toEqual(nowhere.body);
    expect((await t.call('POST', '/sync/v1/blobs/missing', { hashes: [hash] }, b.owner)).body).toEqual({ missing: [hash] });
    expect((await t.call('POST', '/sync/v1/blobs/read', { hashes: [hash] }, b.owner)).body).toEqual({ blobs: [], missing: [hash] });
    expect((await t.call('GET', `/silo/v1/entries/${entryB.body.id}/files/stolen`, undefined, b.owner)).status).toBe(404);

    // company B sending the same bytes itself may attach them
    expect((await t.call('POST', '/sync/v1/blobs', { blobs: [{ hash, data: bytes.toString('base64') }] }, b.owner)).body).toEqual({ stored: 1 });
    expect((await t.call('PUT', `/sync/v1/records/attachment/${entryB.body.id}:stolen`, { origin: uuidv4(), base_version: null, record }, b.owner)).status).toBe(200);
  });
});

describe('sync settings and secrets are the owner\'s', () => {
  it('a user token can neither read nor repoint the sync settings', async () => {
    const [local, remote] = [await instance('laptop'), await instance('remote')];
    await connect(local, remote);
    const user = (await createToken(local.service.db, local.companyKey, 'user', 'clerk')).secret;
    expect((await local.call('GET', '/sync/v1/settings', undefined, user)).status).toBe(403);
    expect((await local.call('PUT', '/sync/v1/settings', { remote_url: 'http://127.0.0.1:9', token: 'sd_x' }, user)).status).toBe(403);
    expect((await local.call('DELETE', '/sync/v1/settings', undefined, user)).status).toBe(403);
    expect((await local.call('POST', '/sync/v1/settings/test', { remote_url: 'http://127.0.0.1:9', token: 'sd_x' }, user)).status).toBe(403);
    expect((await local.call('GET', '/sync/v1/settings')).body.remote_url).toBe(remote.url);
    // a user still sees the badge and may sync now
    expect((await local.call('GET', '/sync/v1/status', undefined, user)).status).toBe(200);
  });

  it('webhook secrets never leave through the sync feed or records to anyone but the owner', async () => {
    const t = await instance('remote');
    const id = uuidv4();
    expect((await t.call('PUT', `/transform/v1/workflows/${id}`, webhookWorkflow)).status).toBe(200);
    const user = (await createToken(t.service.db, t.companyKey, 'user', 'clerk')).secret;
    const enroll = await t.call('PUT', `/access/v1/enrollment/${uuidv4()}`, { app_id: uuidv4(), data: {} });
    const app = enroll.body.token;
    for (const token of [user, app]) {
      const record = await t.call('GET', `/sync/v1/records/workflow/${id}`, undefined, token);
      expect(record.status).toBe(200);
      expect(JSON.stringify(record.body)).not.toContain('whsec-very-secret');
      expect(record.body.record.definition.steps[0].config.bearer_token).toBe('********');
      const feed = await t.call('GET', '/sync/v1/changes', undefined, token);
      expect(JSON.stringify(feed.body)).not.toContain('whsec-very-secret');
    }
    // the owner's laptop syncs the whole workflow, secret included
    expect(JSON.stringify((await t.call('GET', `/sync/v1/records/workflow/${id}`)).body)).toContain('whsec-very-secret');
  });
});

describe('the api-token file', () => {
  it('deleted and minted again: the new token works and the old one no longer does', async () => {
    const t = await instance('remote');
    const file = join(t.dataDir, 'api-token');
    const old = readFileSync(file, 'utf8').trim();
    expect((await t.call('GET', '/access/v1/session', undefined, old)).status).toBe(200);
    rmSync(file);
    expect(await ensureOwnerTokenFile(t.service.db, await ensureDefaultCompany(t.service.db), file)).toEqual({ created: true });
    const fresh = readFileSync(file, 'utf8').trim();
    expect(fresh).not.toBe(old);
    expect((await t.call('GET', '/access/v1/session', undefined, fresh)).status).toBe(200);
    expect((await t.call('GET', '/access/v1/session', undefined, old)).status).toBe(401);
    // still the install's owner
    expect((await t.call('POST', '/access/v1/companies', { name: 'C' }, fresh)).status).toBe(200);
  });
});
