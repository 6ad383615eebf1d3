import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness.ts';
import { OpenApiCheck } from './openapi-check.ts';

let t: TestServer;
let check: OpenApiCheck;
beforeAll(async () => {
  t = await startTestServer();
  check = new OpenApiCheck(await (await fetch(`${t.url}/openapi.json`)).json());
});
afterAll(() => t.close());

const json = 'application/json; charset=utf-8';

describe('every answer an API test receives is held to /openapi.json', () => {
  it('passes an answer that matches its operation', () => {
    expect(() => check.check('GET', `${t.url}/utils/v1/ping`, 200, json, '{"ping":"pong"}')).not.toThrow();
  });

  it('fails an answer with a member its schema does not name, naming the operation and the member', () => {
    expect(() => check.check('GET', `${t.url}/utils/v1/ping`, 200, json, '{"ping":"pong","extra":1}')).toThrow(/ping .*extra/);
  });

  it('fails a declared member of the wrong type (a silo entry version is a string)', async () => {
    const created = await t.call('POST', '/silo/v1/entries', { data: { $schema: 'https://gobl.org/draft-0/note/message', content: 'hello' } });
    expect(created.status).toBe(200);
    expect(typeof created.body.version).toBe('string');
    const wrong = JSON.stringify({ ...created.body, version: 1 });
    expect(() => check.check('GET', `${t.url}/silo/v1/entries/${created.body.id}`, 200, json, wrong)).toThrow(/getEntry.*\/version must be string/);
  });

  it('fails an error body outside the error schema, and a JSON answer where a file is declared', () => {
    const error = '{"key":"not-found","code":"not-found","message":"m","stack":"…"}';
    expect(() => check.check('GET', `${t.url}/silo/v1/entries/0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b`, 404, json, error)).toThrow(/stack/);
    expect(() => check.check('GET', `${t.url}/utils/v1/ping`, 200, 'text/plain', 'pong')).toThrow(/declares application\/json/);
  });

  it('is on in t.call and in the typed client', async () => {
    const before = t.openapi.checked;
    expect((await t.call('GET', '/silo/v1/entries?limit=10')).status).toBe(200);
    expect(t.openapi.checked).toBe(before + 1);
    expect((await t.api.listEntries({ query: { limit: 10 } })).limit).toBe(10);
    expect(t.openapi.checked).toBe(before + 2);
  });
});
