import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadEnvelopes } from '../fixtures/gobl/load.ts';
import { serverEngine } from '../support/server-database.ts';
import { startTestServer, type TestServer } from './harness.ts';

let t: TestServer;
const fixtures = loadEnvelopes();
const invoice = fixtures.find((f) => f.file === 'es-invoice-es-es.json')!.envelope;

beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

function expectError(res: { status: number; body: any }, status: number, key: string) {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body.key).toBe(key);
  expect(res.body.code).toBe(key);
  expect(typeof res.body.message).toBe('string');
}

describe('bad input gets a clear JSON error', () => {
  it('malformed JSON → 400', async () => {
    expectError(await t.call('POST', '/silo/v1/entries', '{"data": {'), 400, 'bad-request');
  });

  it('wrong content type → 415', async () => {
    const res = await t.call('POST', '/silo/v1/entries', JSON.stringify({ data: invoice.doc }), { 'content-type': 'text/plain' });
    expectError(res, 415, 'unsupported-media-type');
  });

  it('an id that is not a UUID → 400', async () => {
    expectError(await t.call('GET', '/silo/v1/entries/not-a-uuid'), 400, 'bad-request');
    expectError(await t.call('PUT', '/silo/v1/entries/123', { data: invoice.doc }), 400, 'bad-request');
  });

  it.each(['abc', '1.5'])('limit=%s → 400 naming the field', async (limit) => {
    const res = await t.call('GET', `/silo/v1/entries?limit=${limit}`);
    expectError(res, 400, 'bad-request');
    expect(Object.keys(res.body.fields)).toEqual(['limit']);
  });

  // A whole number outside the hosted bounds (10 to 100) is what the hosted service answers: a 422.
  it.each(['0', '-1', '9', '101', '1000'])('limit=%s → 422 naming the field and the bound', async (limit) => {
    const res = await t.call('GET', `/silo/v1/entries?limit=${limit}`);
    expectError(res, 422, 'validation');
    expect(Object.keys(res.body.fields)).toEqual(['limit']);
  });

  it('a garbage or tampered cursor → 400', async () => {
    for (let i = 0; i < 11; i++) await t.call('POST', '/silo/v1/entries', { data: { ...invoice.doc, code: `C-${i}` } });
    const page = await t.call('GET', '/silo/v1/entries?limit=10');
    const cursor: string = page.body.next_cursor;
    expect(cursor).toBeTruthy();
    expectError(await t.call('GET', '/silo/v1/entries?cursor=garbage'), 400, 'bad-request');
    const [payload, mac] = cursor.split('.');
    const forged = Buffer.from(JSON.stringify(['2099-01-01T00:00:00.000Z', 'x'])).toString('base64url');
    expectError(await t.call('GET', `/silo/v1/entries?limit=10&cursor=${forged}.${mac}`), 400, 'bad-request');
    expectError(await t.call('GET', `/silo/v1/entries?limit=10&cursor=${payload}.${mac.slice(0, -2)}xx`), 400, 'bad-request');
    // a cursor belongs to its list: the same cursor on another folder is refused
    expectError(await t.call('GET', `/silo/v1/entries?limit=10&folder=payments&cursor=${cursor}`), 400, 'bad-request');
    expect((await t.call('GET', `/silo/v1/entries?limit=10&cursor=${cursor}`)).status).toBe(200);
  });

  it('an over-size body → 413, whether declared or streamed', async () => {
    const big = JSON.stringify({ data: { ...invoice.doc, notes: [{ text: 'x'.repeat(6 * 1024 * 1024) }] } });
    expectError(await t.call('POST', '/silo/v1/entries', big), 413, 'too-large');
    // chunked: no Content-Length, the cap applies while reading
    const stream = new ReadableStream({
      start(controller) {
        for (let i = 0; i < 7; i++) controller.enqueue(new TextEncoder().encode(' '.repeat(1024 * 1024)));
        controller.close();
      },
    });
    const res = await fetch(`${t.url}/silo/v1/entries`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.token}`, 'content-type': 'application/json' },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    expect(res.status).toBe(413);
  });

  it('a document that fails validation → 422 with fields by JSON path; allow_invalid stores it flagged', async () => {
    const bad = structuredClone(invoice);
    bad.head.uuid = '0190c1a0-0000-7000-8000-000000000b01';
    delete bad.doc.supplier;
    bad.doc.currency = 'euros';
    const res = await t.call('PUT', `/silo/v1/entries/${bad.head.uuid}`, { data: bad });
    expectError(res, 422, 'validation');
    expect(res.body.fields).toHaveProperty(['$.data.doc.supplier']);
    expect(res.body.fields).toHaveProperty(['$.data.doc.currency']);
    expect((await t.call('GET', `/silo/v1/entries/${bad.head.uuid}`)).status).toBe(404);

    const stored = await t.call('PUT', `/silo/v1/entries/${bad.head.uuid}`, { data: bad, allow_invalid: true });
    expect(stored.status).toBe(200);
    expect(stored.body.invalid).toBe(true);
    expect(stored.body.faults.flatMap((f: any) => f.paths)).toEqual(expect.arrayContaining(['$.doc.supplier', '$.doc.currency']));
    expect(stored.body.faults.every((f: any) => f.provider === 'silo')).toBe(true);
    expect(res.body.faults.flatMap((f: any) => f.paths)).toEqual(expect.arrayContaining(['$.doc.supplier', '$.doc.currency']));
  });

  it('text with the NUL character: a 422 on PostgreSQL (which cannot store it), never a 500', async () => {
    // Found by the fuzzer once it ran on PostgreSQL: a query parameter holding U+0000 was an internal error.
    const list = await t.call('GET', '/transform/v1/workflows?schema=%00');
    if (serverEngine === 'postgres') expectError(list, 422, 'validation');
    else expect(list.body.list).toEqual([]);
    const search = await t.call('GET', '/silo/v1/entries?q=%00');
    expect(search.status, JSON.stringify(search.body)).toBeLessThan(500);
  });

  it('a body of the wrong shape → 422 naming each field', async () => {
    const res = await t.call('POST', '/silo/v1/entries', { data: 'nope', tags: 'x', folder: '' });
    expectError(res, 422, 'validation');
    expect(Object.keys(res.body.fields).sort()).toEqual(['$.data', '$.folder', '$.tags']);
  });

  it('stores a document of a schema outside GOBL as it is; refuses a GOBL schema GOBL does not have', async () => {
    const res = await t.call('POST', '/silo/v1/entries', { data: { $schema: 'https://example.com/thing', a: 1 } });
    expect(res.status).toBe(200);
    expect(res.body.invalid).toBe(false);
    expect(res.body.folder).toBe('documents');
    const unknown = await t.call('POST', '/silo/v1/entries', { data: { $schema: 'https://gobl.org/draft-0/bill/nothing', a: 1 } });
    expectError(unknown, 422, 'validation');
    expect(unknown.body.faults.map((f: any) => f.code)).toContain('unknown-schema');
  });

  it('20 concurrent PUTs of the same new id → one entry, all answers equal', async () => {
    const id = '0190c1a0-0000-7000-8000-000000000c01';
    const body = { data: { ...invoice.doc, code: 'CONC-1' }, key: 'conc-1' };
    const answers = await Promise.all(Array.from({ length: 20 }, () => t.call('PUT', `/silo/v1/entries/${id}`, body)));
    for (const a of answers) {
      expect(a.status, JSON.stringify(a.body)).toBe(200);
      expect(a.body).toEqual(answers[0].body);
    }
    const count = (await t.service.db.sqlFirst<{ n: number }>('SELECT count(*) AS n FROM entries WHERE id = ?', [id]))!;
    expect(count.n).toBe(1);
  });

  it('no token or a wrong token → 401; public ping needs none', async () => {
    const none = await fetch(`${t.url}/silo/v1/entries`);
    expect(none.status).toBe(401);
    expect((await none.json()).key).toBe('unauthorized');
    const wrong = await t.call('GET', '/silo/v1/entries', undefined, { authorization: 'Bearer sd_wrong' });
    expectError(wrong, 401, 'unauthorized');
    const ping = await fetch(`${t.url}/utils/v1/ping`);
    expect(await ping.json()).toEqual({ ping: 'pong' });
  });

  it('an unknown path under an API area → JSON 404', async () => {
    expectError(await t.call('GET', '/silo/v1/nothing-here'), 404, 'not-found');
  });

  it('a foreign Host (DNS rebinding) or Origin → 403', async () => {
    const { request } = await import('node:http');
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(`${t.url}/utils/v1/ping`, { headers: { host: `evil.example:${t.port}` } }, (res) => {
        res.resume();
        resolve(res.statusCode!);
      });
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(403);
    const cross = await t.call('GET', '/silo/v1/entries', undefined, { origin: 'https://evil.example' });
    expectError(cross, 403, 'forbidden');
    expect(cross.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('serves the OpenAPI document generated from the registry', async () => {
    const res = await fetch(`${t.url}/openapi.json`);
    const doc = await res.json();
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.paths['/silo/v1/entries/{id}'].get.operationId).toBe('getEntry');
    expect(doc.paths['/silo/v1/entries'].get.parameters.map((p: any) => p.name)).toEqual(
      expect.arrayContaining(['folder', 'created_at', 'cursor', 'limit', 'ascending']),
    );
  });
});
