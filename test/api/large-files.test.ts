import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireCompany } from '../../src-main/core/access/companies.ts';
import type { Caller } from '../../src-main/core/access/tokens.ts';
import { desktopCaller } from '../../src-main/desktop/desktop-caller.ts';
import { callService } from '../../src-main/service-process/host.ts';
import { oneLineInvoice } from './gobl-helpers.ts';
import { startTestServer, type TestServer } from './harness.ts';

/**
 * Files of several MiB, the size a body's base64 members are taken from its bytes and decoded a
 * part at a time (json-lift.ts, bytes-members.ts, multipart-body.ts): every way a file comes in
 * stores the same bytes, and what is refused leaves nothing behind. How long each holds the
 * event loop is `npm run bench -- uploads`.
 */
let t: TestServer;
let entryId: string;
let desktop: Caller;
beforeAll(async () => {
  t = await startTestServer();
  entryId = (await t.call('POST', '/silo/v1/entries', { data: oneLineInvoice('F-1') })).body.id;
  desktop = await desktopCaller(t.service.db, await requireCompany(t.service.db, (await t.call('GET', '/access/v1/session')).body.company.id));
});
afterAll(() => t.close());

const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
const files = (id = entryId) => `/silo/v1/entries/${id}/files`;
const auth = () => ({ authorization: `Bearer ${t.token}` });
const download = async (url: string) => Buffer.from(await (await t.fetch(t.url + url, { headers: auth() })).arrayBuffer());

/** The files in the content store, leftovers of interrupted writes included. */
function storedFiles(): string[] {
  const root = t.service.blobs.root;
  return readdirSync(root, { recursive: true, withFileTypes: true }).filter((d) => d.isFile()).map((d) => join(d.parentPath, d.name));
}

const BIG = 9 * 1024 * 1024 + 7;

describe('large files', () => {
  it('arrive whole every way in: JSON, multipart, the upload url, and IPC', async () => {
    const bytes = randomBytes(BIG);
    const check = async (res: { status: number; body: any }) => {
      expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(200);
      expect(res.body).toMatchObject({ size: BIG, hash: sha256(bytes), stored: true });
      expect((await download(res.body.url)).equals(bytes)).toBe(true);
    };
    await check(await t.call('PUT', `${files()}/by-json`, { name: 'a.bin', sha256: sha256(bytes), data: bytes.toString('base64') }));

    const form = new FormData();
    form.append('data', new Blob([new Uint8Array(bytes)], { type: 'application/octet-stream' }), 'b.bin');
    const multipart = await t.fetch(`${t.url}${files()}/by-form`, { method: 'PUT', headers: auth(), body: form });
    await check({ status: multipart.status, body: await multipart.json() });

    const announced = await t.call('PUT', `${files()}/by-url`, { name: 'c.bin', sha256: sha256(randomBytes(1)), size: 1, mime: 'application/octet-stream' });
    expect(announced.body.stored).toBe(false);
    const other = randomBytes(BIG);
    const pending = await t.call('PUT', `${files()}/by-url-2`, { name: 'd.bin', sha256: sha256(other), size: BIG, mime: 'application/octet-stream' });
    const raw = await t.fetch(t.url + pending.body.url, { method: 'PUT', body: new Uint8Array(other) });
    const uploaded = await raw.json();
    expect(raw.status, JSON.stringify(uploaded)).toBe(200);
    expect(uploaded).toMatchObject({ size: BIG, hash: sha256(other), stored: true });

    const ipc = await callService(t.service, desktop, 'putAttachment', { params: { entry_id: entryId, id: 'by-ipc' }, body: { name: 'e.bin', data: bytes.toString('base64') } });
    expect(ipc).toMatchObject({ size: BIG, hash: sha256(bytes) });
  });

  it('a sync push of a large file and many small ones stores them all', async () => {
    const blobs = [randomBytes(BIG), ...Array.from({ length: 40 }, () => randomBytes(5000))];
    const res = await t.call('POST', '/sync/v1/blobs', { blobs: blobs.map((b) => ({ hash: sha256(b), data: b.toString('base64') })) });
    expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(200);
    expect(res.body).toEqual({ stored: blobs.length });
    for (const b of blobs) expect(await t.service.blobs.holds(sha256(b))).toBe(true);
  });

  it('a sync read answers a large file whole, written out as it is encoded, and the same over IPC', async () => {
    const bytes = randomBytes(BIG);
    await t.call('PUT', `${files()}/to-read`, { name: 'r.bin', data: bytes.toString('base64') });
    const small = randomBytes(100);
    await t.call('PUT', `${files()}/to-read-small`, { name: 's.bin', data: small.toString('base64') });
    const res = await t.fetch(`${t.url}/sync/v1/blobs/read`, { method: 'POST', headers: { ...auth(), 'content-type': 'application/json' }, body: JSON.stringify({ hashes: [sha256(bytes), sha256(small)] }) });
    const text = await res.text();
    expect(res.status).toBe(200);
    expect(Number(res.headers.get('content-length'))).toBe(Buffer.byteLength(text));
    const answer = JSON.parse(text) as { blobs: Array<{ hash: string; data: string }>; missing: string[] };
    expect(answer.blobs.map((b) => b.hash)).toEqual([sha256(bytes), sha256(small)]);
    expect(Buffer.from(answer.blobs[0].data, 'base64').equals(bytes)).toBe(true);
    expect(answer.blobs[1].data).toBe(small.toString('base64'));
    const ipc = (await callService(t.service, desktop, 'readSyncBlobs', { body: { hashes: [sha256(small)] } })) as typeof answer;
    expect(ipc.blobs).toEqual([{ hash: sha256(small), data: small.toString('base64') }]);
  });

  it('refuses a long text that is not base64 by its field, over HTTP and IPC, and writes nothing', async () => {
    const before = storedFiles();
    const text = `${randomBytes(BIG).toString('base64')}-`;
    const http = await t.call('PUT', `${files()}/not-base64`, { name: 'x.bin', data: text });
    expect(http.status).toBe(422);
    expect(http.body.fields).toEqual({ '$.data': 'must be base64' });
    const blob = await t.call('POST', '/sync/v1/blobs', { blobs: [{ hash: sha256(Buffer.from('x')), data: text }] });
    expect(blob.body.fields).toEqual({ '$.blobs[0].data': 'must be base64' });
    await expect(callService(t.service, desktop, 'putAttachment', { params: { entry_id: entryId, id: 'not-base64' }, body: { name: 'x.bin', data: text } }))
      .rejects.toMatchObject({ key: 'validation', fields: { '$.data': 'must be base64' } });
    expect(storedFiles()).toEqual(before);
  });

  it('writes no bytes for an entry that is not there, or bytes that are not their hash', async () => {
    const before = storedFiles();
    const bytes = randomBytes(BIG);
    const missing = await t.call('PUT', `${files(randomUUID())}/lost`, { name: 'x.bin', data: bytes.toString('base64') });
    expect(missing.status).toBe(404);
    const wrong = await t.call('PUT', `${files()}/wrong-hash`, { name: 'x.bin', sha256: sha256(Buffer.from('other')), data: bytes.toString('base64') });
    expect(wrong.status).toBe(422);
    expect(wrong.body.fields).toEqual({ '$.sha256': `the bytes hash to ${sha256(bytes)}` });
    expect(storedFiles()).toEqual(before);
  });
});
