import { createHash, randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadEnvelopes } from '../fixtures/gobl/load.ts';
import { startTestServer, type TestServer } from './harness.ts';

let t: TestServer;
let entryId: string;

beforeAll(async () => {
  t = await startTestServer();
  const { envelope } = loadEnvelopes()[0];
  entryId = envelope.head.uuid;
  expect((await t.call('PUT', `/silo/v1/entries/${entryId}`, { data: envelope })).status).toBe(200);
});
afterAll(() => t.close());

const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

describe('attachments', () => {
  it('round-trips bytes exactly, with hash, size, type and a safe disposition', async () => {
    const bytes = randomBytes(300_000);
    const put = await t.call('PUT', `/silo/v1/entries/${entryId}/files/scan-1`, {
      name: 'Factura café 001.pdf',
      desc: 'scanned original',
      data: bytes.toString('base64'),
      meta: { pages: '2' },
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(put.body).toMatchObject({
      id: 'scan-1',
      entry_id: entryId,
      hash: sha256(bytes),
      size: bytes.length,
      mime: 'application/pdf',
      stored: true,
      url: `/silo/v1/entries/${entryId}/files/scan-1`,
      meta: { pages: '2' },
    });

    const res = await fetch(t.url + put.body.url, { headers: { authorization: `Bearer ${t.token}` } });
    expect(res.status).toBe(200);
    const got = Buffer.from(await res.arrayBuffer());
    expect(sha256(got)).toBe(sha256(bytes));
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-disposition')).toBe(
      `inline; filename="Factura caf_ 001.pdf"; filename*=UTF-8''${encodeURIComponent('Factura café 001.pdf')}`,
    );

    const entry = await t.call('GET', `/silo/v1/entries/${entryId}`);
    expect(entry.body.attachments.map((a: any) => a.id)).toEqual(['scan-1']);
    // content-addressed: files/ab/abcdef…
    expect(readdirSync(join(t.dataDir, 'files', put.body.hash.slice(0, 2)))).toContain(put.body.hash);
  });

  it('serves HTML and SVG as downloads, never inline', async () => {
    const html = Buffer.from('<script>alert(1)</script>');
    await t.call('PUT', `/silo/v1/entries/${entryId}/files/page`, { name: 'x.html', data: html.toString('base64') });
    const res = await fetch(`${t.url}/silo/v1/entries/${entryId}/files/page`, { headers: { authorization: `Bearer ${t.token}` } });
    expect(res.headers.get('content-disposition')).toMatch(/^attachment;/);
    expect(res.headers.get('content-security-policy')).toContain('sandbox');
  });

  it('is idempotent for the same file and refuses another file under the same id', async () => {
    const body = { name: 'a.txt', data: Buffer.from('hello').toString('base64') };
    const a = await t.call('PUT', `/silo/v1/entries/${entryId}/files/txt`, body);
    const b = await t.call('PUT', `/silo/v1/entries/${entryId}/files/txt`, body);
    expect(b.status).toBe(200);
    expect(b.body).toEqual(a.body);
    const c = await t.call('PUT', `/silo/v1/entries/${entryId}/files/txt`, { ...body, data: Buffer.from('bye').toString('base64') });
    expect(c.status).toBe(409);
  });

  it('refuses bytes that do not match the given hash, and stores none of them', async () => {
    const bytes = Buffer.from(`not what the hash names ${randomBytes(8).toString('hex')}`);
    const res = await t.call('PUT', `/silo/v1/entries/${entryId}/files/h`, {
      name: 'h.txt',
      data: bytes.toString('base64'),
      hash: '0'.repeat(64),
    });
    expect(res.status).toBe(422);
    expect(res.body.fields['$.sha256']).toContain(sha256(bytes));
    expect(await t.service.blobs.holds(sha256(bytes))).toBe(false);
  });

  // A name is what the user's file was called, shown and sent back in downloads (escaped): any
  // printable text. What would hide or reorder what it shows, or is no name at all, is refused.
  it.each([
    ['', 'empty'],
    ['   ', 'blank'],
    ['a'.repeat(5000), 'long'],
    ['a\u0000b', 'control'],
    ['invoice\u202Efdp.exe', 'bidi override'],
    ['a\u200Bb.pdf', 'zero-width'],
  ])('refuses the hostile name %j (%s) with 422 and stores nothing', async (name) => {
    const res = await t.call('PUT', `/silo/v1/entries/${entryId}/files/hostile`, { name, data: 'aGk=' });
    expect(res.status).toBe(422);
    expect(res.body.key).toBe('validation');
    expect(res.body.fields['$.name']).toBeTruthy();
    expect((await t.call('GET', `/silo/v1/entries/${entryId}/files/hostile`)).status).toBe(404);
  });

  it('keeps a name that looks like a path as text, and downloads it under a name with no path in it', async () => {
    const res = await t.call('PUT', `/silo/v1/entries/${entryId}/files/pathlike`, { name: '../../etc/passwd', data: 'aGk=' });
    expect(res.status).toBe(200);
    expect(res.body.name).toBe('../../etc/passwd');
    const download = await fetch(`${t.url}/silo/v1/entries/${entryId}/files/pathlike`, { headers: { authorization: `Bearer ${t.token}` } });
    expect(download.headers.get('content-disposition')).toMatch(/^attachment; filename="\.\._\.\._etc_passwd"; /);
  });

  it('answers 404 for a missing attachment or entry', async () => {
    expect((await t.call('GET', `/silo/v1/entries/${entryId}/files/none`)).status).toBe(404);
    const res = await t.call('PUT', '/silo/v1/entries/0190c1a0-0000-7000-8000-0000000000ff/files/x', { name: 'x', data: 'aGk=' });
    expect(res.status).toBe(404);
    expect(res.body.key).toBe('not-found');
  });

  it('stores nothing when the upload is cut off mid-body', async () => {
    const before = await t.call('GET', `/silo/v1/entries/${entryId}`);
    const payload = JSON.stringify({ name: 'cut.bin', data: randomBytes(2_000_000).toString('base64') });
    await new Promise<void>((resolve) => {
      const req = request(`${t.url}/silo/v1/entries/${entryId}/files/cut`, {
        method: 'PUT',
        headers: {
          authorization: `Bearer ${t.token}`,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(payload),
        },
      });
      req.on('error', () => resolve());
      req.write(payload.slice(0, payload.length / 2), () => {
        setTimeout(() => {
          req.destroy();
          resolve();
        }, 100);
      });
    });
    await new Promise((r) => setTimeout(r, 200));
    expect((await t.call('GET', `/silo/v1/entries/${entryId}/files/cut`)).status).toBe(404);
    const after = await t.call('GET', `/silo/v1/entries/${entryId}`);
    expect(after.body.version).toBe(before.body.version);
    expect(readdirSync(join(t.dataDir, 'files', 'tmp'))).toEqual([]);
  });
});

describe('meta', () => {
  it('sets, reads, lists on the entry and deletes meta records', async () => {
    const put = await t.call('PUT', `/silo/v1/entries/${entryId}/meta/erp-ref`, {
      src: 'erp',
      ref: 'INV-77',
      value: { booked: true },
      link_url: 'https://erp.example.com/inv/77',
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(put.body).toMatchObject({
      id: `${entryId}:erp:erp-ref`,
      key: 'erp-ref',
      src: 'erp',
      ref: 'INV-77',
      value: { booked: true },
      shared: false,
    });
    const again = await t.call('PUT', `/silo/v1/entries/${entryId}/meta/erp-ref`, { src: 'erp', value: { booked: false } });
    expect(again.body.created_at).toBe(put.body.created_at);
    expect(again.body.value).toEqual({ booked: false });

    const got = await t.call('GET', `/silo/v1/entries/${entryId}/meta/erp-ref`);
    expect(got.body.value).toEqual({ booked: false });
    const entry = await t.call('GET', `/silo/v1/entries/${entryId}`);
    expect(entry.body.meta.map((m: any) => m.id)).toContain(`${entryId}:erp:erp-ref`);

    await t.call('PUT', `/silo/v1/entries/${entryId}/meta/erp-ref`, { src: 'other', value: {} });
    expect((await t.call('GET', `/silo/v1/entries/${entryId}/meta/erp-ref`)).status).toBe(409);
    expect((await t.call('GET', `/silo/v1/entries/${entryId}/meta/erp-ref?src=other`)).status).toBe(200);

    const del = await t.call('DELETE', `/silo/v1/entries/${entryId}/meta/erp-ref?src=erp`);
    expect(del.body).toEqual({ deleted: 1 });
    expect((await t.call('GET', `/silo/v1/entries/${entryId}/meta/erp-ref?src=erp`)).status).toBe(404);
  });
});
