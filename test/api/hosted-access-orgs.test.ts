import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness.ts';

/** GET /access/v1/orgs as the hosted Go client's OrgService.Fetch reads it: an array of orgs with workspaces (issue 15). */
let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

const asToken = async (token: string, path: string) => {
  const res = await t.fetch(t.url + path, { headers: { authorization: `Bearer ${token}` } });
  return { status: res.status, body: (await res.json()) as any };
};

describe('GET /access/v1/orgs', () => {
  it('answers one org, this install, holding the companies the caller may act for, in the hosted shape', async () => {
    const own = (await t.call('GET', '/access/v1/workspace')).body;
    const b = (await t.call('POST', '/access/v1/companies', { name: 'Client B S.L.' })).body;

    const all = await t.call('GET', '/access/v1/orgs');
    expect(all.status, JSON.stringify(all.body)).toBe(200);
    expect(Array.isArray(all.body)).toBe(true);
    expect(all.body).toHaveLength(1);
    const [org] = all.body;
    expect(org.id).toBe(t.service.instanceId);
    expect(org.name).toBe('Silodesk');
    expect(org.workspaces.map((w: any) => w.id)).toEqual([own.id, b.id]);
    expect(org.workspaces[1]).toEqual({ id: b.id, name: 'Client B S.L.', slug: 'client-b-s-l', sandbox: false, created_at: b.created_at, updated_at: b.updated_at });
    expect(org.created_at <= org.updated_at).toBe(true);

    // another company's owner sees its own workspace only
    const onlyB = await asToken(b.owner_token, '/access/v1/orgs');
    expect(onlyB.body[0].workspaces.map((w: any) => w.id)).toEqual([b.id]);
  });

  it('is for people, not applications (as hosted: an OAuth user token)', async () => {
    const app = await t.call('PUT', '/access/v1/enrollment/01950020-daef-7d75-b1ba-33e7e392a658', { client_id: 'orgs-app', client_secret: 'x' });
    const res = await asToken(app.body.token, '/access/v1/orgs');
    expect(res.status).toBe(403);
    expect(res.body.message).toBeTruthy();
  });
});
