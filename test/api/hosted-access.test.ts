import { v4 as uuidv4, v5 as uuidv5, v7 as uuidv7, validate, version } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness.ts';

/** The access and utils calls hosted clients make first (issue 15): uuid, workspace, enrollment. */
let t: TestServer;

beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

const as = async (token: string, method: string, path: string, body?: unknown) => {
  const res = await fetch(t.url + path, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any };
};

describe('GET /utils/v1/uuid', () => {
  it('answers {uuid, version} of the asked version, v4 by default, name-based ones from base + key', async () => {
    const plain = await t.call('GET', '/utils/v1/uuid');
    expect(plain.status).toBe(200);
    expect(Object.keys(plain.body).sort()).toEqual(['uuid', 'version']);
    expect(plain.body.version).toBe('4');
    expect(version(plain.body.uuid)).toBe(4);
    for (const v of ['1', '6', '7']) {
      const res = await t.call('GET', `/utils/v1/uuid?v=${v}`);
      expect(res.body.version).toBe(v);
      expect(validate(res.body.uuid) && version(res.body.uuid)).toBe(Number(v));
    }
    const base = '6ba7b810-9dad-11d1-80b4-00c04fd430c8';
    const named = await t.call('GET', `/utils/v1/uuid?v=5&base=${base}&key=1001`);
    expect(named.body).toEqual({ uuid: uuidv5('1001', base), version: '5' });
  });

  it('refuses an unknown version, or a name-based one without base and key, with a 400 naming the rule', async () => {
    const nine = await t.call('GET', '/utils/v1/uuid?v=9');
    expect(nine.status).toBe(400);
    expect(nine.body.fields.v).toContain('one of');
    const noKey = await t.call('GET', '/utils/v1/uuid?v=3&base=6ba7b810-9dad-11d1-80b4-00c04fd430c8');
    expect(noKey.status).toBe(400);
    expect(noKey.body.message).toContain('need a base UUID and a key');
  });
});

describe('GET /access/v1/workspace', () => {
  it('answers the token’s company in the hosted shape, never a sandbox', async () => {
    const company = (await t.call('POST', '/access/v1/companies', { name: 'Müller & Söhne GmbH' })).body;
    const res = await as(company.owner_token, 'GET', '/access/v1/workspace');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: company.id,
      name: 'Müller & Söhne GmbH',
      slug: 'muller-sohne-gmbh',
      sandbox: false,
      created_at: company.created_at,
      updated_at: company.updated_at,
    });
    expect((await t.call('GET', '/access/v1/workspace')).body.id).not.toBe(company.id);
  });
});

describe('enrollment as the hosted Go client makes it', () => {
  it('creates with client_id/client_secret and owner_id, updates with {"Data": …} or {"data": …}', async () => {
    const workspace = (await t.call('GET', '/access/v1/workspace')).body;
    const id = uuidv7();
    // invopop.EnrollmentService.Create: no app_id, OAuth client credentials, data null when unset
    const body = { owner_id: workspace.id, data: null, client_id: 'XzhLPeXCi3GBVg', client_secret: 'p2NWtVpuDxDYt41crWUBmQKaE4Mh92roDxp' };
    const created = await t.call('PUT', `/access/v1/enrollment/${id}`, body);
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body).toMatchObject({ id, data: {}, disabled: false, sandbox: false });
    expect(validate(created.body.app_id)).toBe(true);
    expect(created.body.token).toMatch(/^sd_/);
    // tokens here last until revoked: far enough that the Go session never tries to renew
    expect(created.body.token_expires).toBeGreaterThan(Date.now() / 1000 + 100 * 365 * 24 * 3600);
    expect(JSON.stringify(created.body)).not.toContain(body.client_secret);
    const stored = JSON.stringify(await t.service.db.sqlFirst('SELECT * FROM enrollments WHERE id = ?', [id]));
    expect(stored).not.toContain(body.client_secret);

    // the same request again is the same enrollment (no new token); the same client_id is the same application
    const replay = await t.call('PUT', `/access/v1/enrollment/${id}`, body);
    expect(replay.status).toBe(200);
    expect(replay.body.token).toBeUndefined();
    const twin = await t.call('PUT', `/access/v1/enrollment/${uuidv7()}`, { ...body, data: { x: 1 } });
    expect(twin.status).toBe(409);
    expect(twin.body.message).toContain(created.body.app_id);

    const app = created.body.token;
    // invopop.EnrollmentService.Update: UpdateEnrollment has no json tag, so Go sends "Data"
    const goUpdate = await as(app, 'POST', '/access/v1/enrollment', { Data: { ledger: '430' } });
    expect(goUpdate.status, JSON.stringify(goUpdate.body)).toBe(200);
    expect(goUpdate.body.data).toEqual({ ledger: '430' });
    const patched = await as(app, 'PATCH', '/access/v1/enrollment', { data: { ledger: '700' } });
    expect(patched.body.data).toEqual({ ledger: '700' });
    expect((await as(app, 'GET', '/access/v1/enrollment')).body).toMatchObject({ data: { ledger: '700' }, sandbox: false });

    // neither spelling, or both, is a 422 rather than a silent wipe of the configuration
    const neither = await as(app, 'POST', '/access/v1/enrollment', {});
    expect(neither.status).toBe(422);
    const both = await as(app, 'POST', '/access/v1/enrollment', { data: {}, Data: {} });
    expect(both.status).toBe(422);
    expect(both.body.fields['$.Data']).toContain('not both');
    expect((await as(app, 'GET', '/access/v1/enrollment')).body.data).toEqual({ ledger: '700' });
  });

  it('refuses an owner_id that is not the token’s workspace, and a body naming no application', async () => {
    const other = await t.call('PUT', `/access/v1/enrollment/${uuidv7()}`, { owner_id: uuidv4(), client_id: 'other-app' });
    expect(other.status).toBe(422);
    expect(other.body.fields['$.owner_id']).toContain('workspace');
    const none = await t.call('PUT', `/access/v1/enrollment/${uuidv7()}`, { data: {} });
    expect(none.status).toBe(422);
    expect(none.body.fields['$.app_id']).toContain('client_id');
    // app_id, as before, still works
    const appId = uuidv4();
    const byAppId = await t.call('PUT', `/access/v1/enrollment/${uuidv7()}`, { app_id: appId, data: { a: 1 } });
    expect(byAppId.body).toMatchObject({ app_id: appId, data: { a: 1 } });
  });
});
