import { createHash } from 'node:crypto';
import { v4 as uuidv4, v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authorizeEnrollment } from '../../src-main/core/access/authorize.ts';
import { companyKeyOf } from '../../src-main/core/access/company-key.ts';
import { startTestServer, type TestServer } from './harness.ts';

/**
 * POST /access/v1/enrollment/authorize as the hosted Go client calls it (issue 15):
 * invopop.EnrollmentService.Authorize / AuthorizeWithOwnerID / AuthorizeWithID send
 * {owner_id|id, client_id, client_secret} with HTTP Basic client credentials, or a
 * Bearer token (resty's token wins over Basic when a session holds one).
 */
let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

const CLIENT_ID = 'CvI6CIygjGP10g';
const CLIENT_SECRET = 'YSKIfGaUrEdDFK_NPGO-Yj1oVDJcjV15N4hHbuAEg2c';
const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

/** a POST with exactly the given Authorization header (or none): the owner token of `call` must not leak in */
async function authorize(body: unknown, authorization?: string) {
  const res = await t.fetch(`${t.url}/access/v1/enrollment/authorize`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any };
}

const asToken = async (token: string, path: string) => {
  const res = await t.fetch(t.url + path, { headers: { authorization: `Bearer ${token}` } });
  return { status: res.status, body: (await res.json()) as any };
};

let enrollmentId: string;
let workspaceId: string;
let enrolledBy: string;

beforeAll(async () => {
  workspaceId = (await t.call('GET', '/access/v1/workspace')).body.id;
  enrollmentId = uuidv7();
  // invopop.EnrollmentService.Create, made with the user's token
  const created = await t.call('PUT', `/access/v1/enrollment/${enrollmentId}`, {
    owner_id: workspaceId,
    data: null,
    client_id: CLIENT_ID,
    client_secret: CLIENT_SECRET,
  });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  enrolledBy = created.body.owner_id;
});

describe('POST /access/v1/enrollment/authorize', () => {
  it('AuthorizeWithOwnerID: Basic client credentials and owner_id answer the enrollment with a working token', async () => {
    const body = { owner_id: workspaceId, client_id: CLIENT_ID, client_secret: CLIENT_SECRET };
    const res = await authorize(body, basic(CLIENT_ID, CLIENT_SECRET));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ id: enrollmentId, disabled: false, sandbox: false, data: {} });
    expect(res.body.token).toMatch(/^sd_/);
    expect(res.body.token_expires).toBeGreaterThan(Date.now() / 1000 + 300);
    // the token is the application's: it reads its own enrollment and the workspace
    expect((await asToken(res.body.token, '/access/v1/enrollment')).body.id).toBe(enrollmentId);
    expect((await asToken(res.body.token, '/access/v1/workspace')).body.id).toBe(workspaceId);
    // the owner the enrollment names works as well as the workspace
    expect((await authorize({ ...body, owner_id: enrolledBy })).body.id).toBe(enrollmentId);
  });

  it('keeps only the SHA-256 of the client secret', async () => {
    const row = (await t.service.db.sqlFirst('SELECT * FROM enrollments WHERE id = ?', [enrollmentId])) as any;
    expect(row.client_secret_hash).toBe(createHash('sha256').update(CLIENT_SECRET).digest('hex'));
    expect(JSON.stringify(row)).not.toContain(CLIENT_SECRET);
  });

  it('answers the same token to every authorization (no pile of tokens), a new one once it is revoked', async () => {
    const body = { owner_id: workspaceId, client_id: CLIENT_ID, client_secret: CLIENT_SECRET };
    const first = (await authorize(body)).body.token;
    const again = await Promise.all([authorize(body), authorize({ id: enrollmentId, client_id: CLIENT_ID, client_secret: CLIENT_SECRET })]);
    expect(again.map((r) => r.body.token)).toEqual([first, first]);
    const tokens = (await t.call('GET', '/access/v1/tokens')).body.list.filter((k: any) => k.enrollment_id === enrollmentId);
    const authorizedTokens = tokens.filter((k: any) => k.name.endsWith('(authorized)') && !k.revoked_at);
    expect(authorizedTokens).toHaveLength(1);
    expect((await t.call('DELETE', `/access/v1/tokens/${authorizedTokens[0].id}`)).status).toBe(200);
    expect((await asToken(first, '/access/v1/enrollment')).status).toBe(401);
    const renewed = (await authorize(body)).body.token;
    expect(renewed).toMatch(/^sd_/);
    expect(renewed).not.toBe(first);
    expect((await asToken(renewed, '/access/v1/enrollment')).status).toBe(200);
  });

  it('answers one token to first authorizations that arrive together', async () => {
    const clientId = 'together-app';
    const id = uuidv7();
    expect((await t.call('PUT', `/access/v1/enrollment/${id}`, { owner_id: workspaceId, client_id: clientId, client_secret: CLIENT_SECRET })).status).toBe(200);
    const body = { id, client_id: clientId, client_secret: CLIENT_SECRET };
    // Called in-process, so that they interleave at every step of the database (HTTP would space them out).
    const ctx = { service: t.service, caller: { companyKey: (await companyKeyOf(t.service.db, workspaceId))!, companyId: workspaceId, kind: 'owner' as const } };
    const answers = await Promise.all(Array.from({ length: 4 }, () => authorizeEnrollment(ctx, body, undefined)));
    expect(new Set(answers.map((r) => r.token)).size).toBe(1);
    expect((await asToken(answers[0].token!, '/access/v1/enrollment')).body.id).toBe(id);
    const tokens = (await t.call('GET', '/access/v1/tokens')).body.list.filter((k: any) => k.enrollment_id === id && k.name.endsWith('(authorized)'));
    expect(tokens).toHaveLength(1);
  });

  it('Authorize with a session token: a Bearer application token is answered back; a person’s token names its workspace', async () => {
    const creds = { client_id: CLIENT_ID, client_secret: CLIENT_SECRET };
    const appToken = (await authorize({ owner_id: workspaceId, ...creds })).body.token;
    const byBearer = await authorize(creds, `Bearer ${appToken}`);
    expect(byBearer.status, JSON.stringify(byBearer.body)).toBe(200);
    expect(byBearer.body).toMatchObject({ id: enrollmentId, token: appToken });
    const byOwnerToken = await authorize(creds, `Bearer ${t.token}`);
    expect(byOwnerToken.body.id).toBe(enrollmentId);
    expect(byOwnerToken.body.token).toMatch(/^sd_/);
    expect(byOwnerToken.body.token).not.toBe(t.token);
    expect((await authorize(creds, 'Bearer sd_not-a-token')).status).toBe(401);
  });

  it('takes the credentials from Basic auth alone', async () => {
    const res = await authorize({ owner_id: workspaceId }, basic(CLIENT_ID, CLIENT_SECRET));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.id).toBe(enrollmentId);
  });

  it('refuses a wrong secret (401), another application or an unknown owner (404), no credentials (401), no owner (400)', async () => {
    const wrong = await authorize({ owner_id: workspaceId, client_id: CLIENT_ID, client_secret: `${CLIENT_SECRET}x` });
    expect(wrong.status).toBe(401);
    expect(wrong.body.token).toBeUndefined();
    expect(wrong.body.message).toContain('client secret');
    const wrongBasic = await authorize({ owner_id: workspaceId }, basic(CLIENT_ID, 'nope'));
    expect(wrongBasic.status).toBe(401);
    const otherApp = await authorize({ owner_id: workspaceId, client_id: 'someone-else', client_secret: CLIENT_SECRET });
    expect(otherApp.status).toBe(404);
    const unknownOwner = await authorize({ owner_id: uuidv4(), client_id: CLIENT_ID, client_secret: CLIENT_SECRET });
    expect(unknownOwner.status).toBe(404);
    const byOtherId = await authorize({ id: uuidv7(), client_id: CLIENT_ID, client_secret: CLIENT_SECRET });
    expect(byOtherId.status).toBe(404);
    const none = await authorize({ owner_id: workspaceId });
    expect(none.status).toBe(401);
    expect(none.body.message).toContain('client_secret');
    const noOwner = await authorize({ client_id: CLIENT_ID, client_secret: CLIENT_SECRET });
    expect(noOwner.status).toBe(400);
    // another company's enrollment of the same application is not reached with this owner id
    const b = (await t.call('POST', '/access/v1/companies', { name: 'Client B' })).body;
    expect((await authorize({ owner_id: b.id, client_id: CLIENT_ID, client_secret: CLIENT_SECRET })).status).toBe(404);
  });

  it('refuses a disabled enrollment (403), and one enrolled without a secret until a replay adds it', async () => {
    const id = uuidv7();
    const body = { owner_id: workspaceId, data: { a: 1 }, client_id: 'no-secret-app' };
    expect((await t.call('PUT', `/access/v1/enrollment/${id}`, body)).status).toBe(200);
    const creds = { owner_id: workspaceId, client_id: 'no-secret-app', client_secret: 's3cret-value' };
    const before = await authorize(creds);
    expect(before.status).toBe(401);
    expect(before.body.message).toContain('without a client_secret');
    expect((await t.call('PUT', `/access/v1/enrollment/${id}`, { ...body, client_secret: 's3cret-value' })).status).toBe(200);
    expect((await authorize(creds)).status).toBe(200);
    // a later replay does not replace the kept secret
    await t.call('PUT', `/access/v1/enrollment/${id}`, { ...body, client_secret: 'hijack' });
    expect((await authorize({ ...creds, client_secret: 'hijack' })).status).toBe(401);

    expect((await t.call('PATCH', `/access/v1/enrollments/${id}`, { disabled: true })).status).toBe(200);
    const disabled = await authorize(creds);
    expect(disabled.status).toBe(403);
    expect(disabled.body.token).toBeUndefined();
  });
});
