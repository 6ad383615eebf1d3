import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companyKeyOf } from '../../src-main/core/access/company-key.ts';
import { ApiClientError } from '../../src-main/core/api/client/errors.ts';
import { registerIpcHandlers, type IpcMainLike } from '../../src-main/ipc/register.ts';
import type { IpcAnswer } from '../../src-main/ipc/channel.ts';
import { callService } from '../../src-main/service-process/host.ts';
import { createRelayClient, serveRelay } from '../../src-main/service-process/relay.ts';
import { memoryPortPair } from '../unit/relay/memory-ports.ts';
import { loadEnvelope } from '../fixtures/gobl/load.ts';
import { startTestServer, type TestServer } from './harness.ts';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

function invoice(code: string): any {
  const doc = loadEnvelope('es-invoice-es-es.json').doc;
  doc.uuid = uuidv7();
  doc.code = code;
  return doc;
}

async function entry(code: string): Promise<any> {
  const res = await t.call('PUT', `/silo/v1/entries/${uuidv7()}`, { data: invoice(code) });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

const patchAs = (id: string, body: unknown, ifMatch?: string) =>
  t.call('PATCH', `/silo/v1/entries/${id}`, body, ifMatch === undefined ? {} : { 'If-Match': ifMatch });

describe('If-Match on entry writes', () => {
  it('PATCH with the current version applies; with a stale one it is 412 precondition-failed and changes nothing', async () => {
    const e = await entry('IFM-1');
    const ok = await patchAs(e.id, { tags: ['first'] }, `"${e.version}"`);
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.version).toBe(String(Number(e.version) + 1));

    const stale = await patchAs(e.id, { tags: ['second'] }, `"${e.version}"`);
    expect(stale.status).toBe(412);
    expect(stale.body).toMatchObject({ key: 'precondition-failed', code: 'precondition-failed', fields: { 'if-match': `the entry is at version ${Number(e.version) + 1}` } });
    expect(stale.body.message).toContain('changed elsewhere');
    expect((await t.call('GET', `/silo/v1/entries/${e.id}`)).body.tags).toEqual(['first']);
    // the same version written bare, weak, in a list, or any version with *
    let version = Number(e.version) + 1;
    for (const header of [(v: number) => String(v), (v: number) => `W/"${v}"`, (v: number) => `"1", "${v}"`, () => '*']) {
      const res = await patchAs(e.id, { state: 'sent' }, header(version));
      expect(res.status, `${header(version)}: ${JSON.stringify(res.body)}`).toBe(200);
      expect((await patchAs(e.id, { state: 'sent' }, `"${version}"`)).status).toBe(412);
      version = Number(res.body.version);
    }
  });

  it('two clients PATCHing the same version at once: one wins, the other gets 412 (no edit is lost silently)', async () => {
    const e = await entry('IFM-2');
    const [a, b] = await Promise.all([
      patchAs(e.id, { content_type: 'application/merge-patch+json', data: { doc: { code: 'IFM-2-A' } } }, `"${e.version}"`),
      patchAs(e.id, { content_type: 'application/merge-patch+json', data: { doc: { code: 'IFM-2-B' } } }, `"${e.version}"`),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 412]);
    const winner = a.status === 200 ? 'IFM-2-A' : 'IFM-2-B';
    expect((await t.call('GET', `/silo/v1/entries/${e.id}`)).body.data.doc.code).toBe(winner);
  });

  it('without If-Match nothing changes: both PATCHes apply, as before', async () => {
    const e = await entry('IFM-3');
    expect((await patchAs(e.id, { tags: ['a'] })).status).toBe(200);
    expect((await patchAs(e.id, { tags: ['b'] })).status).toBe(200);
  });

  it('PUT with If-Match: the entry must exist at that version; then it is the idempotent PUT it always was', async () => {
    const id = uuidv7();
    const body = { data: invoice('IFM-4') };
    const absent = await t.call('PUT', `/silo/v1/entries/${id}`, body, { 'If-Match': '*' });
    expect(absent.status).toBe(412);
    expect((await t.call('GET', `/silo/v1/entries/${id}`)).status).toBe(404);
    const created = await t.call('PUT', `/silo/v1/entries/${id}`, body);
    expect(created.status).toBe(200);
    expect((await t.call('PUT', `/silo/v1/entries/${id}`, body, { 'If-Match': `"${created.body.version}"` })).status).toBe(200);
    await patchAs(id, { tags: ['moved-on'] });
    const stale = await t.call('PUT', `/silo/v1/entries/${id}`, body, { 'If-Match': `"${created.body.version}"` });
    expect(stale.status).toBe(412);
    expect(stale.body.key).toBe('precondition-failed');
  });

  it('a malformed If-Match is a 400 naming the header; other headers are not read', async () => {
    const e = await entry('IFM-5');
    const res = await patchAs(e.id, { tags: ['x'] }, 'banana');
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ key: 'bad-request', fields: { 'if-match': expect.any(String) } });
    const openapi = (await t.call('GET', '/openapi.json')).body;
    for (const method of ['patch', 'put']) {
      expect(openapi.paths['/silo/v1/entries/{id}'][method].parameters).toContainEqual(expect.objectContaining({ name: 'if-match', in: 'header', required: false }));
    }
    expect(openapi.paths['/silo/v1/entries'].post.parameters.some((p: any) => p.in === 'header')).toBe(false);
  });

  it('the typed client (the renderer\'s) sends it, and reads 412 as precondition-failed', async () => {
    const e = await entry('IFM-6');
    const saved = await t.api.patchEntry({ params: { id: e.id }, headers: { 'if-match': `"${e.version}"` }, body: { state: 'sent' } });
    expect(saved.version).toBe(String(Number(e.version) + 1));
    const err = await t.api.patchEntry({ params: { id: e.id }, headers: { 'if-match': `"${e.version}"` }, body: { state: 'paid' } }).catch((x: unknown) => x);
    expect(err).toBeInstanceOf(ApiClientError);
    expect(err).toMatchObject({ key: 'precondition-failed', status: 412 });
  });

  it('IPC passes it too: the window → the IPC bridge → the relay → the service', async () => {
    const [shellEnd, serviceEnd] = memoryPortPair();
    const companyId: string = (await t.call('GET', '/access/v1/session')).body.company.id;
    const caller = { companyKey: (await companyKeyOf(t.service.db, companyId))!, companyId, kind: 'owner' as const };
    serveRelay<{}>(serviceEnd, async () => ({ call: (name, input) => callService(t.service, caller, name, input), close: async () => undefined }), { onClosed: () => undefined });
    const relay = createRelayClient<{}>(shellEnd);
    await relay.start({});
    let listener: ((event: { senderFrame?: { url?: string } | null }, ...args: unknown[]) => Promise<IpcAnswer>) | undefined;
    const ipcMain: IpcMainLike = { handle: (_channel, fn) => void (listener = fn) };
    registerIpcHandlers(ipcMain, { relay: (name, input, who) => relay.call(name, input, who), isTrusted: () => true });
    const call = (input: unknown) => listener!({ senderFrame: { url: 'app://silodesk/' } }, { name: 'patchEntry', input });

    const e = await entry('IFM-7');
    expect(await call({ params: { id: e.id }, headers: { 'if-match': `"${e.version}"` }, body: { tags: ['ipc'] } })).toMatchObject({ ok: true });
    expect(await call({ params: { id: e.id }, headers: { 'if-match': `"${e.version}"` }, body: { tags: ['late'] } })).toMatchObject({
      ok: false,
      error: { key: 'precondition-failed' },
    });
    await relay.shutdown();
  });
});
