import { v4 as uuidv4, v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueLoginCode } from '../../src-main/core/access/login-codes.ts';
import { ensureDefaultCompany } from '../../src-main/core/access/bootstrap.ts';
import { startHttpServer } from '../../src-main/http/server.ts';
import { loadEnvelope } from '../fixtures/gobl/load.ts';
import { startTestServer, type TestServer } from './harness.ts';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

/** fetch as a given token */
async function as(token: string, method: string, path: string, body?: unknown) {
  const res = await fetch(t.url + path, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any, headers: res.headers };
}

describe('companies keep their data apart', () => {
  it('a token acts only for its own company, in every list and lookup', async () => {
    const invoice = loadEnvelope('es-invoice-es-es.json');
    const inA = await t.call('POST', '/silo/v1/entries', { data: invoice.doc, key: 'shared-key' });
    const wfA = await t.call('PUT', `/transform/v1/workflows/${uuidv7()}`, { name: 'A', steps: [{ provider: 'silo.tags', config: { add: ['a'] } }] });
    await t.call('PUT', `/sequence/v1/series/${uuidv7()}`, { name: 'A series', code: 'A', prefix: 'A-', padding: 3 });

    const b = await t.call('POST', '/access/v1/companies', { name: 'Client B S.L.' });
    expect(b.status, JSON.stringify(b.body)).toBe(200);
    expect(b.body.owner_token).toMatch(/^sd_/);
    const tokenB = b.body.owner_token;

    expect((await as(tokenB, 'GET', '/silo/v1/entries')).body.list).toEqual([]);
    expect((await as(tokenB, 'GET', '/silo/v1/folders')).body.list).toEqual([]);
    expect((await as(tokenB, 'GET', `/silo/v1/search?q=${encodeURIComponent(invoice.doc.supplier.name)}`)).body.list).toEqual([]);
    expect((await as(tokenB, 'GET', `/silo/v1/entries/${inA.body.id}`)).status).toBe(404);
    expect((await as(tokenB, 'GET', '/silo/v1/entries/key/shared-key')).status).toBe(404);
    expect((await as(tokenB, 'GET', `/transform/v1/workflows/${wfA.body.id}`)).status).toBe(404);
    expect((await as(tokenB, 'GET', '/transform/v1/workflows')).body.list).toEqual([]);
    expect((await as(tokenB, 'GET', '/transform/v1/jobs')).body.list).toEqual([]);
    expect((await as(tokenB, 'GET', '/sequence/v1/series')).body.list).toEqual([]);
    // B cannot run A's workflow, nor over A's entry
    const job = await as(tokenB, 'POST', '/transform/v1/jobs', { workflow_id: wfA.body.id, silo_entry_id: inA.body.id });
    expect(job.status).toBe(404);
    // the same key is free in another company
    const inB = await as(tokenB, 'POST', '/silo/v1/entries', { data: invoice.doc, key: 'shared-key' });
    expect(inB.status).toBe(200);
    expect((await t.call('GET', '/silo/v1/entries/key/shared-key')).body.id).toBe(inA.body.id);

    const session = await as(tokenB, 'GET', '/access/v1/session');
    expect(session.body.company.name).toBe('Client B S.L.');
    const renamed = await t.call('PATCH', `/access/v1/companies/${b.body.id}`, { name: 'Client B' });
    expect(renamed.body.name).toBe('Client B');
    expect((await t.call('GET', '/access/v1/companies')).body.list.map((c: any) => c.name)).toEqual(['My company', 'Client B']);
  });
});

describe('tokens', () => {
  it('are made, listed without secrets, rotated and revoked', async () => {
    const made = await t.call('POST', '/access/v1/tokens', { name: 'bookkeeper' });
    expect(made.status).toBe(200);
    expect(made.body).toMatchObject({ kind: 'user', name: 'bookkeeper' });
    const secret = made.body.token;
    expect((await as(secret, 'GET', '/silo/v1/entries')).status).toBe(200);

    const list = await t.call('GET', '/access/v1/tokens');
    const text = JSON.stringify(list.body);
    expect(text).not.toContain(secret);
    expect(text).not.toMatch(/"(token|hash)"/);
    expect(list.body.list.find((x: any) => x.id === made.body.id).last_used_at).toBeTruthy();

    // a user token may not manage tokens or companies
    expect((await as(secret, 'GET', '/access/v1/tokens')).status).toBe(403);
    expect((await as(secret, 'POST', '/access/v1/companies', { name: 'x' })).status).toBe(403);

    const rotated = await t.call('POST', `/access/v1/tokens/${made.body.id}/rotate`);
    expect(rotated.body.id).toBe(made.body.id);
    expect((await as(secret, 'GET', '/silo/v1/entries')).status).toBe(401);
    expect((await as(rotated.body.token, 'GET', '/silo/v1/entries')).status).toBe(200);

    const revoked = await t.call('DELETE', `/access/v1/tokens/${made.body.id}`);
    expect(revoked.body.revoked_at).toBeTruthy();
    expect((await as(rotated.body.token, 'GET', '/silo/v1/entries')).status).toBe(401);
  });
});

describe('enrollments', () => {
  it('enroll an application, whose token reads and updates only its own configuration', async () => {
    const id = uuidv4();
    const appId = uuidv4();
    const created = await t.call('PUT', `/access/v1/enrollment/${id}`, { app_id: appId, data: { ledger: '430' } });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body).toMatchObject({ id, app_id: appId, data: { ledger: '430' }, disabled: false });
    const appToken = created.body.token;
    expect(appToken).toMatch(/^sd_/);

    const replay = await t.call('PUT', `/access/v1/enrollment/${id}`, { app_id: appId, data: { ledger: '430' } });
    expect(replay.status).toBe(200);
    expect(replay.body.token).toBeUndefined();
    expect((await t.call('PUT', `/access/v1/enrollment/${id}`, { app_id: appId, data: { other: 1 } })).status).toBe(409);

    const own = await as(appToken, 'GET', '/access/v1/enrollment');
    expect(own.body).toMatchObject({ id, data: { ledger: '430' } });
    expect(own.body.token).toBeUndefined();
    for (const method of ['PUT', 'PATCH', 'POST']) {
      const updated = await as(appToken, method, '/access/v1/enrollment', { data: { ledger: method } });
      expect(updated.status, method).toBe(200);
      expect(updated.body.data).toEqual({ ledger: method });
    }
    // the application may use the silo, but not manage access
    expect((await as(appToken, 'GET', '/silo/v1/entries')).status).toBe(200);
    expect((await as(appToken, 'PUT', `/access/v1/enrollment/${uuidv4()}`, { app_id: uuidv4() })).status).toBe(403);
    // app-only operations refuse a user token
    expect((await t.call('GET', '/access/v1/enrollment')).status).toBe(403);
    expect((await t.call('PUT', '/access/v1/enrollment', { data: {} })).status).toBe(403);

    const disabled = await t.call('PATCH', `/access/v1/enrollments/${id}`, { disabled: true });
    expect(disabled.body.disabled).toBe(true);
    expect((await as(appToken, 'GET', '/access/v1/enrollment')).status).toBe(401);
    await t.call('PATCH', `/access/v1/enrollments/${id}`, { disabled: false });
    expect((await as(appToken, 'GET', '/access/v1/enrollment')).status).toBe(200);
    expect((await t.call('GET', '/access/v1/enrollments')).body.list.map((e: any) => e.id)).toContain(id);
  });
});

describe('login codes', () => {
  it('trade once for a browser session token, then never again', async () => {
    const company = await ensureDefaultCompany(t.service.db);
    const code = issueLoginCode(t.service, company);
    const first = await fetch(`${t.url}/access/v1/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ code }) });
    const body = await first.json();
    expect(first.status).toBe(200);
    expect(body.company_id).toBe(company.id);
    expect((await as(body.token, 'GET', '/access/v1/session')).body.caller.kind).toBe('user');
    const again = await fetch(`${t.url}/access/v1/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ code }) });
    expect(again.status).toBe(401);
  });
});

describe('hardening', () => {
  it('answers 429 with Retry-After past the per-token rate, other tokens unaffected', async () => {
    const server = await startHttpServer(t.service, { host: '127.0.0.1', port: 0, rateLimit: { perSecond: 1, burst: 5 } });
    try {
      const statuses: number[] = [];
      let retryAfter: string | null = null;
      // A user token: the owner's own tools on this machine are not throttled (test/api/perf-rate-limit.test.ts).
      const limited = (await t.call('POST', '/access/v1/tokens', { name: 'limited' })).body.token;
      for (let i = 0; i < 8; i++) {
        const res = await fetch(`${server.url}/silo/v1/folders`, { headers: { authorization: `Bearer ${limited}` } });
        statuses.push(res.status);
        if (res.status === 429) {
          retryAfter = res.headers.get('retry-after');
          expect((await res.json()).key).toBe('rate-limited');
        } else await res.arrayBuffer();
      }
      expect(statuses.slice(0, 5)).toEqual([200, 200, 200, 200, 200]);
      expect(statuses.slice(5)).toEqual([429, 429, 429]);
      expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
      const other = (await t.call('POST', '/access/v1/tokens', { name: 'other' })).body.token;
      expect((await fetch(`${server.url}/silo/v1/folders`, { headers: { authorization: `Bearer ${other}` } })).status).toBe(200);
    } finally {
      await server.close();
    }
  });

  it('logs method, path and status, never a token, a query or document data', async () => {
    const lines: string[] = [];
    const server = await startHttpServer(t.service, { host: '127.0.0.1', port: 0, log: (l) => lines.push(l) });
    try {
      const doc = loadEnvelope('fr-invoice-fr-fr.json').doc;
      const headers = { authorization: `Bearer ${t.token}`, 'content-type': 'application/json' };
      await fetch(`${server.url}/silo/v1/entries`, { method: 'POST', headers, body: JSON.stringify({ data: doc }) });
      await fetch(`${server.url}/silo/v1/search?q=${encodeURIComponent(doc.supplier.name)}`, { headers });
      await fetch(`${server.url}/silo/v1/entries`, { headers: { authorization: 'Bearer sd_not-a-real-token' } });
      const made = await fetch(`${server.url}/access/v1/tokens`, { method: 'POST', headers, body: JSON.stringify({ name: 'logged?' }) });
      const secret = (await made.json()).token;
      const log = lines.join('\n');
      expect(lines.length).toBeGreaterThanOrEqual(4);
      expect(log).toContain('POST /silo/v1/entries 200');
      for (const needle of [t.token, secret, 'sd_not-a-real-token', doc.supplier.name, encodeURIComponent(doc.supplier.name), doc.code]) {
        expect(log).not.toContain(needle);
      }
    } finally {
      await server.close();
    }
  });
});
