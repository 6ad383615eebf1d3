import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireCompany } from '../../src-main/core/access/companies.ts';
import { desktopCaller } from '../../src-main/desktop/desktop-caller.ts';
import { callService } from '../../src-main/service-process/host.ts';
import { oneLineInvoice } from './gobl-helpers.ts';
import { atOnce, startTestServer, type TestServer } from './harness.ts';

/** Issue 15: files as the hosted service takes them: POST without an id, hash first, multipart. */
let t: TestServer;
let entryId: string;
beforeAll(async () => {
  t = await startTestServer();
  entryId = (await t.call('POST', '/silo/v1/entries', { data: oneLineInvoice('F-1') })).body.id;
});
afterAll(() => t.close());

const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
const files = (id = entryId) => `/silo/v1/entries/${id}/files`;

const download = async (url: string) => Buffer.from(await (await t.fetch(t.url + url, { headers: { authorization: `Bearer ${t.token}` } })).arrayBuffer());

describe('POST /silo/v1/entries/{entry_id}/files', () => {
  it('stores a file under a new UUIDv7 with the hosted members', async () => {
    const bytes = randomBytes(1000);
    const res = await t.call('POST', files(), {
      name: 'invoice.xml', desc: 'UBL', key: 'ubl', category: 'format', embeddable: true, private: false,
      mime: 'application/xml', meta: { schema: 'ubl-2.1' }, data: bytes.toString('base64'),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7/);
    expect(res.body).toMatchObject({
      entry_id: entryId, name: 'invoice.xml', desc: 'UBL', key: 'ubl', category: 'format', embeddable: true, private: false,
      mime: 'application/xml', meta: { schema: 'ubl-2.1' }, hash: sha256(bytes), size: 1000, stored: true,
    });
    expect(await download(res.body.url)).toEqual(bytes);
    const entry = (await t.call('GET', `/silo/v1/entries/${entryId}`)).body;
    expect(entry.attachments.find((a: any) => a.id === res.body.id)).toMatchObject({ key: 'ubl', category: 'format' });
  });

  it('with a key the entry already has: the same file again is a replay, another is a 409', async () => {
    const body = { name: 'a.pdf', key: 'pdf', data: Buffer.from('%PDF-1').toString('base64') };
    const a = await t.call('POST', files(), body);
    const b = await t.call('POST', files(), body);
    expect(b.status).toBe(200);
    expect(b.body).toEqual(a.body);
    const c = await t.call('POST', files(), { ...body, data: Buffer.from('%PDF-2').toString('base64') });
    expect(c.status).toBe(409);
    // and a PUT under another id with the key
    expect((await t.call('PUT', `${files()}/other-pdf`, body)).status).toBe(409);
  });

  it('two POSTs of one key at once store one file: the second is its replay', async () => {
    const desktop = await desktopCaller(t.service.db, await requireCompany(t.service.db, (await t.call('GET', '/access/v1/session')).body.company.id));
    // Several rounds: on PostgreSQL the two run side by side, and one round alone may miss the race.
    for (const key of ['twice-1', 'twice-2', 'twice-3', 'twice-4']) {
      const body = { name: 'twice.xml', key, data: randomBytes(64).toString('base64') };
      const [a, b] = await atOnce(t.service, [0, 1].map(() => () => callService(t.service, desktop, 'createFile', { params: { entry_id: entryId }, body })));
      expect(b).toEqual(a);
      const entry = (await t.call('GET', `/silo/v1/entries/${entryId}`)).body;
      expect(entry.attachments.filter((f: any) => f.key === key)).toHaveLength(1);
    }
  });

  it('refuses a size that is not the data, meta that is not text, and an entry it cannot see', async () => {
    expect((await t.call('POST', files(), { name: 'x', data: 'aGk=', size: 3 })).status).toBe(422);
    expect((await t.call('POST', files(), { name: 'x', data: 'aGk=', meta: { n: 1 } })).status).toBe(422);
    expect((await t.call('POST', files('0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b'), { name: 'x', data: 'aGk=' })).status).toBe(404);
  });
});

describe('hash first: the client announces the hash, the service says whether it needs the bytes', () => {
  it('answers stored: false and a url for bytes it does not hold; the right bytes there store the file', async () => {
    const bytes = randomBytes(5000);
    const announce = { name: 'scan.pdf', sha256: sha256(bytes), size: bytes.length, mime: 'application/pdf' };
    const res = await t.call('PUT', `${files()}/scan`, announce);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ id: 'scan', stored: false, hash: sha256(bytes), size: 5000 });
    expect(res.body.url).toMatch(/^\/silo\/v1\/uploads\/[A-Za-z0-9_-]{43}$/);
    // Announcing again answers the same url; the entry lists only stored files.
    expect((await t.call('PUT', `${files()}/scan`, announce)).body.url).toBe(res.body.url);
    expect((await t.call('GET', `/silo/v1/entries/${entryId}`)).body.attachments.map((a: any) => a.id)).not.toContain('scan');
    expect((await t.call('GET', `${files()}/scan`)).status).toBe(404);

    // The url is the credential: no bearer token needed, wrong bytes refused and nothing stored.
    const wrong = await t.fetch(t.url + res.body.url, { method: 'PUT', body: randomBytes(5000) });
    expect(wrong.status).toBe(422);
    const short = await t.fetch(t.url + res.body.url, { method: 'PUT', body: bytes.subarray(0, 10) });
    expect(short.status).toBe(422);
    const ok = await t.fetch(t.url + res.body.url, { method: 'PUT', body: bytes, headers: { 'content-type': 'application/json' } });
    expect(ok.status).toBe(200);
    const stored = await ok.json();
    expect(stored).toMatchObject({ id: 'scan', stored: true, url: `${files()}/scan` });
    expect(await download(stored.url)).toEqual(bytes);
    // Used once: the url is gone, the announcement is now a replay of the stored file.
    expect((await t.fetch(t.url + res.body.url, { method: 'PUT', body: bytes })).status).toBe(404);
    expect((await t.call('PUT', `${files()}/scan`, announce)).body).toMatchObject({ stored: true });
  });

  it('stores at once bytes the company already holds, and never says so of another company’s', async () => {
    const bytes = randomBytes(2000);
    expect((await t.call('PUT', `${files()}/first`, { name: 'a.bin', data: bytes.toString('base64') })).status).toBe(200);
    const announce = { name: 'b.bin', sha256: sha256(bytes), size: bytes.length, mime: 'application/octet-stream' };
    const again = await t.call('POST', files(), announce);
    expect(again.body).toMatchObject({ stored: true, hash: sha256(bytes) });
    expect(await download(again.body.url)).toEqual(bytes);

    const other = (await t.call('POST', '/access/v1/companies', { name: 'Other S.L.' })).body.owner_token;
    const as = (method: string, path: string, body?: unknown) =>
      t.fetch(t.url + path, { method, headers: { authorization: `Bearer ${other}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) }).then(async (r) => ({ status: r.status, body: await r.json() }));
    const theirs = await as('POST', '/silo/v1/entries', { data: oneLineInvoice('F-OTHER') });
    const guess = await as('POST', files(theirs.body.id), announce);
    expect(guess.body.stored).toBe(false);
  });

  it('needs sha256, size and mime without data, refuses over the cap, another announcement under the id, and an expired url', async () => {
    const missing = await t.call('PUT', `${files()}/nodata`, { name: 'x.pdf' });
    expect(missing.status).toBe(422);
    expect(Object.keys(missing.body.fields)).toEqual(expect.arrayContaining(['$.sha256', '$.size', '$.mime']));
    expect((await t.call('PUT', `${files()}/big`, { name: 'x', sha256: '0'.repeat(64), size: 50 * 1024 * 1024 + 1, mime: 'application/pdf' })).status).toBe(413);

    const first = await t.call('PUT', `${files()}/pending`, { name: 'p.pdf', sha256: 'a'.repeat(64), size: 10, mime: 'application/pdf' });
    expect(first.body.stored).toBe(false);
    expect((await t.call('PUT', `${files()}/pending`, { name: 'p.pdf', sha256: 'b'.repeat(64), size: 10, mime: 'application/pdf' })).status).toBe(409);

    await t.service.db.sqlRun("UPDATE attachment_uploads SET expires_at = '2000-01-01T00:00:00.000Z' WHERE id = 'pending'");
    expect((await t.fetch(t.url + first.body.url, { method: 'PUT', body: randomBytes(10) })).status).toBe(410);
    expect((await t.fetch(`${t.url}/silo/v1/uploads/${'x'.repeat(43)}`, { method: 'PUT', body: 'hi' })).status).toBe(404);
    expect((await t.fetch(`${t.url}/silo/v1/uploads/short`, { method: 'PUT', body: 'hi' })).status).toBe(400);
  });

  it('takes at most 50 MiB at an upload url, counted while the bytes stream', async () => {
    const announced = await t.call('PUT', `${files()}/huge`, { name: 'h.bin', sha256: 'c'.repeat(64), size: 1024, mime: 'application/octet-stream' });
    const chunk = new Uint8Array(1024 * 1024);
    let sent = 0;
    const body = new ReadableStream({
      pull(controller) {
        if (sent++ >= 51) controller.close();
        else controller.enqueue(chunk);
      },
    });
    const res = await t.fetch(t.url + announced.body.url, { method: 'PUT', body, duplex: 'half' } as RequestInit);
    expect(res.status).toBe(413);
  });
});

describe('multipart/form-data uploads', () => {
  function form(fields: Record<string, string>, file?: { name: string; type: string; bytes: Uint8Array; field?: string }) {
    const data = new FormData();
    for (const [k, v] of Object.entries(fields)) data.append(k, v);
    if (file) data.append(file.field ?? 'data', new Blob([new Uint8Array(file.bytes)], { type: file.type }), file.name);
    return data;
  }
  const post = (path: string, body: FormData, method = 'POST') =>
    t.fetch(t.url + path, { method, headers: { authorization: `Bearer ${t.token}` }, body }).then(async (r) => ({ status: r.status, body: await r.json() }));

  it('takes the file part as the data, its file name and type as name and mime, fields by their types', async () => {
    const bytes = randomBytes(3000);
    const res = await post(files(), form({ desc: 'signed copy', embeddable: 'true', meta: '{"pages":"3"}', category: 'attachment' }, { name: 'Contrato firmado.pdf', type: 'application/pdf', bytes }));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ name: 'Contrato firmado.pdf', mime: 'application/pdf', desc: 'signed copy', embeddable: true, meta: { pages: '3' }, category: 'attachment', size: 3000, hash: sha256(bytes), stored: true });
    expect(await download(res.body.url)).toEqual(bytes);
    // PUT under an id takes the same form; a name field wins over the file name.
    const put = await post(`${files()}/mp-put`, form({ name: 'given.pdf' }, { name: 'ignored.pdf', type: 'application/pdf', bytes }), 'PUT');
    expect(put.body).toMatchObject({ id: 'mp-put', name: 'given.pdf' });
  });

  it.each([
    ['../../etc/passwd', 'a path'],
    ['..\\..\\boot.ini', 'a Windows path'],
    ['a\u202Efdp.exe', 'a bidi override'],
    ['bad\u0001.pdf', 'a control character'],
  ])('refuses the file name %j (%s) and stores nothing', async (name) => {
    const before = (await t.call('GET', `/silo/v1/entries/${entryId}`)).body.attachments.length;
    const res = await post(files(), form({}, { name, type: 'application/pdf', bytes: Buffer.from('x') }));
    expect(res.status).toBe(422);
    expect(res.body.fields['$.data']).toMatch(/file name/);
    expect((await t.call('GET', `/silo/v1/entries/${entryId}`)).body.attachments.length).toBe(before);
  });

  it('refuses fields it does not take, a field twice, a second file, and a form that is not one', async () => {
    const file = { name: 'a.pdf', type: 'application/pdf', bytes: Buffer.from('x') };
    const unknown = await post(files(), form({ __proto__x: 'y', owner: 'me' }, file));
    expect(unknown.status).toBe(422);
    const twice = form({ desc: 'a' }, file);
    twice.append('desc', 'b');
    expect((await post(files(), twice)).status).toBe(422);
    const two = form({}, file);
    two.append('data', new Blob([Buffer.from('y')]), 'b.pdf');
    expect((await post(files(), two)).status).toBe(422);
    const elsewhere = await post(files(), form({}, { ...file, field: 'attachment' }));
    expect(elsewhere.status).toBe(422);
    const broken = await t.fetch(t.url + files(), {
      method: 'POST',
      headers: { authorization: `Bearer ${t.token}`, 'content-type': 'multipart/form-data; boundary=xyz' },
      body: '--xyz\r\nnot a part',
    });
    expect(broken.status).toBe(400);
    const plain = await t.fetch(t.url + files(), { method: 'POST', headers: { authorization: `Bearer ${t.token}`, 'content-type': 'text/plain' }, body: 'x' });
    expect(plain.status).toBe(415);
  });

  it('is declared in /openapi.json for the operations that take it, and the upload url takes raw bytes', async () => {
    const doc = await (await fetch(`${t.url}/openapi.json`)).json();
    const post = doc.paths['/silo/v1/entries/{entry_id}/files'].post.requestBody.content;
    expect(Object.keys(post)).toEqual(['application/json', 'multipart/form-data']);
    expect(post['multipart/form-data'].schema.properties.data.contentMediaType).toBe('application/octet-stream');
    expect(Object.keys(doc.paths['/silo/v1/entries/{entry_id}/files/{id}'].put.requestBody.content)).toContain('multipart/form-data');
    expect(Object.keys(doc.paths['/silo/v1/uploads/{token}'].put.requestBody.content)).toEqual(['application/octet-stream']);
    expect(Object.keys(doc.paths['/silo/v1/entries'].post.requestBody.content)).toEqual(['application/json']);
  });
});
