import { createHash, randomBytes } from 'node:crypto';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csvObjects, download, textOf, unzip } from './exports-helpers.ts';
import { partialInvoice } from './gobl-helpers.ts';
import { openCompany, startTestServer, type TestServer } from './harness.ts';
import { creditNote, invoiceDoc } from './perf-helpers.ts';

/**
 * Issue 12: an entry id is the company's own. Company A and company B each hold an entry
 * under the SAME id, with different content, and everything B does under that id (its
 * files, meta, states, versions, trash, derived indexes, exports) reads and changes only
 * B's record while A's stays exactly as it was. Over real HTTP, as each company's owner.
 * (That SQLite looks them up by the company's keys, never walking it: perf-plans.test.ts.)
 */
let t: TestServer;
let tokenB: string;
beforeAll(async () => {
  t = await startTestServer();
  ({ owner: tokenB } = await openCompany(t));
});
afterAll(() => t.close());

type Call = (method: string, path: string, body?: unknown) => Promise<{ status: number; body: any; headers: Headers }>;
const A: Call = (method, path, body) => t.call(method, path, body);
const B: Call = (method, path, body) => t.call(method, path, body, { authorization: `Bearer ${tokenB}` });

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** The same id stored by both companies, each with its own document, key, folder and tags. */
async function sharedEntry(code = `SHARED-${Math.random().toString(36).slice(2, 8)}`) {
  const id = uuidv7();
  const a = await A('PUT', `/silo/v1/entries/${id}`, { data: invoiceDoc(code, { customer: { name: 'Customer of A' } }), key: `key-${id}`, folder: 'a-folder', tags: ['of-a'] });
  expect(a.status, JSON.stringify(a.body)).toBe(200);
  const b = await B('PUT', `/silo/v1/entries/${id}`, { data: invoiceDoc(code, { customer: { name: 'Customer of B' } }), key: `key-${id}`, folder: 'b-folder', tags: ['of-b'] });
  expect(b.status, JSON.stringify(b.body)).toBe(200);
  expect(b.body.id).toBe(id);
  return { id, code, a: a.body, b: b.body };
}

const customerOf = (entry: any) => entry.data.doc.customer.name;

describe('one id, two companies: entries', () => {
  it('stores the same id in both companies, each a replay of its own and a 409 only for its own other body', async () => {
    const { id, code, a, b } = await sharedEntry();
    expect(customerOf(a)).toBe('Customer of A');
    expect(customerOf(b)).toBe('Customer of B');
    expect((await A('GET', `/silo/v1/entries/${id}`)).body).toMatchObject({ folder: 'a-folder', tags: ['of-a'] });
    expect(customerOf((await B('GET', `/silo/v1/entries/${id}`)).body)).toBe('Customer of B');
    expect(customerOf((await A('GET', `/silo/v1/entries/key/key-${id}`)).body)).toBe('Customer of A');
    expect(customerOf((await B('GET', `/silo/v1/entries/key/key-${id}`)).body)).toBe('Customer of B');

    // B's own replay answers B's entry; another body under the id conflicts with B's entry only.
    const replay = await B('PUT', `/silo/v1/entries/${id}`, { data: invoiceDoc(code, { customer: { name: 'Customer of B' } }), key: `key-${id}`, folder: 'b-folder', tags: ['of-b'] });
    expect(replay.status).toBe(200);
    expect(replay.body.version).toBe(b.version);
    expect((await B('PUT', `/silo/v1/entries/${id}`, { data: invoiceDoc(code, { customer: { name: 'Someone else' } }) })).status).toBe(409);
    expect((await A('GET', `/silo/v1/entries/${id}`)).body.version).toBe(a.version);
  });

  it('lists, names, sums and searches each company’s own entry under the id', async () => {
    const { id, code } = await sharedEntry();
    const listed = async (call: Call, folder: string) => ((await call('GET', `/silo/v1/entries?folder=${folder}&limit=100`)).body.list as any[]).filter((e) => e.id === id);
    expect(await listed(A, 'a-folder')).toHaveLength(1);
    expect(await listed(A, 'b-folder')).toEqual([]);
    expect(await listed(B, 'b-folder')).toHaveLength(1);
    expect(await listed(B, 'a-folder')).toEqual([]);
    // A sorted page reads along another index: still the company's own row, with its own files and meta (none).
    const sorted = ((await B('GET', '/silo/v1/entries?sort=total&limit=100')).body.list as any[]).filter((e) => e.id === id);
    expect(sorted.map((e) => e.folder)).toEqual(['b-folder']);

    const names = (await B('GET', `/silo/v1/entry-names?ids=${id}`)).body.list;
    expect(names).toHaveLength(1);
    expect(names[0].title).toContain('Customer of B');

    const found = async (call: Call) => ((await call('GET', `/silo/v1/search?q=${code}`)).body.list as any[]).filter((e) => e.id === id);
    expect((await found(A)).map((e) => e.folder)).toEqual(['a-folder']);
    expect((await found(B)).map((e) => e.folder)).toEqual(['b-folder']);
    expect((await B('GET', '/silo/v1/entry-sums?folder=b-folder')).body.count).toBeGreaterThanOrEqual(1);
  });

  it('patches, trashes and restores only the caller’s entry', async () => {
    const { id, a } = await sharedEntry();
    const patched = await B('PATCH', `/silo/v1/entries/${id}`, { state: 'sent', tags: ['of-b', 'patched'], data: { doc: { notes: [{ text: 'B only' }] } }, content_type: 'application/merge-patch+json' });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect(patched.body.state).toBe('sent');
    const ofA = (await A('GET', `/silo/v1/entries/${id}`)).body;
    expect(ofA).toMatchObject({ state: a.state, tags: ['of-a'], version: a.version, digest: a.digest });

    expect((await B('DELETE', `/silo/v1/entries/${id}`)).status).toBe(200);
    expect((await B('GET', `/silo/v1/entries/${id}`)).status).toBe(404);
    expect((await A('GET', `/silo/v1/entries/${id}`)).body.version).toBe(a.version);
    expect((await A('GET', `/silo/v1/trash/entries/${id}`)).status).toBe(404);
    expect(customerOf((await B('GET', `/silo/v1/trash/entries/${id}`)).body)).toBe('Customer of B');
    const trashOf = async (call: Call) => ((await call('GET', '/silo/v1/trash?limit=100')).body.list as any[]).filter((i) => i.entry_id === id);
    expect(await trashOf(A)).toEqual([]);
    expect((await trashOf(B)).map((i) => i.kind)).toEqual(['entry']);
    // A cannot restore what is in B's trash (its own entry is live and answers as it is).
    expect((await A('POST', `/silo/v1/entries/${id}/restore`)).body.version).toBe(a.version);

    const back = await B('POST', `/silo/v1/entries/${id}/restore`);
    expect(back.status).toBe(200);
    expect(back.body.tags).toEqual(['of-b', 'patched']);
    expect((await A('GET', `/silo/v1/entries/${id}`)).body).toMatchObject({ tags: ['of-a'], version: a.version });
  });

  it('imports under an id another company holds as new, and as a replay only of the company’s own', async () => {
    const id = uuidv7();
    const mine = { id, data: invoiceDoc('IMP-1', { customer: { name: 'Customer of A' } }) };
    const theirs = { id, data: invoiceDoc('IMP-1', { customer: { name: 'Customer of B' } }) };
    expect((await A('POST', '/silo/v1/import', { entries: [mine] })).body.results[0]).toMatchObject({ status: 'created', id });
    expect((await B('POST', '/silo/v1/import', { entries: [theirs] })).body.results[0]).toMatchObject({ status: 'created', id });
    expect((await B('POST', '/silo/v1/import', { entries: [theirs] })).body.results[0]).toMatchObject({ status: 'exists', id });
    expect((await B('POST', '/silo/v1/import', { entries: [mine] })).body.results[0]).toMatchObject({ status: 'error', error: { code: 'conflict' } });
    expect(customerOf((await A('GET', `/silo/v1/entries/${id}`)).body)).toBe('Customer of A');
    expect(customerOf((await B('GET', `/silo/v1/entries/${id}`)).body)).toBe('Customer of B');
  });
});

describe('one id, two companies: what hangs on the entry', () => {
  it('keeps each company’s file under the same file id, and trashes, restores and purges only the caller’s', async () => {
    const { id } = await sharedEntry();
    const put = (call: Call, text: string) => call('PUT', `/silo/v1/entries/${id}/files/doc.txt`, { name: 'doc.txt', data: Buffer.from(text).toString('base64') });
    expect((await put(A, 'bytes of A')).status).toBe(200);
    const versionA = (await A('GET', `/silo/v1/entries/${id}`)).body.version;
    expect((await put(B, 'bytes of B')).status).toBe(200);
    expect((await A('GET', `/silo/v1/entries/${id}`)).body.version).toBe(versionA);
    expect((await A('GET', `/silo/v1/entries/${id}/files/doc.txt`)).body).toBe('bytes of A');
    expect((await B('GET', `/silo/v1/entries/${id}/files/doc.txt`)).body).toBe('bytes of B');
    const filesOf = async (call: Call) => ((await call('GET', `/silo/v1/entries/${id}`)).body.attachments as any[]).map((f) => [f.id, f.hash]);
    expect(await filesOf(A)).toEqual([['doc.txt', sha256(Buffer.from('bytes of A'))]]);
    expect(await filesOf(B)).toEqual([['doc.txt', sha256(Buffer.from('bytes of B'))]]);

    const trashed = await B('DELETE', `/silo/v1/entries/${id}/files/doc.txt`);
    expect(trashed.status).toBe(200);
    // B's trash holds the file once, named after B's document.
    const trashedFiles = async (call: Call) => ((await call('GET', '/silo/v1/trash?kind=file&limit=100')).body.list as any[]).filter((i) => i.entry_id === id);
    expect((await trashedFiles(B)).map((i) => [i.file_id, i.title.includes('Customer of B')])).toEqual([['doc.txt', true]]);
    expect(await trashedFiles(A)).toEqual([]);
    expect((await B('GET', `/silo/v1/entries/${id}/files/doc.txt`)).status).toBe(404);
    expect((await A('GET', `/silo/v1/entries/${id}/files/doc.txt`)).body).toBe('bytes of A');
    expect((await A('GET', `/silo/v1/entries/${id}`)).body.version).toBe(versionA);
    // A has nothing of this id in its trash to restore.
    expect((await A('POST', `/silo/v1/entries/${id}/files/doc.txt/restore`)).status).toBe(404);
    expect((await B('POST', `/silo/v1/entries/${id}/files/doc.txt/restore`)).status).toBe(200);
    expect((await B('GET', `/silo/v1/entries/${id}/files/doc.txt`)).body).toBe('bytes of B');

    const again = await B('DELETE', `/silo/v1/entries/${id}/files/doc.txt`);
    expect((await A('POST', '/silo/v1/trash/purge', { items: [{ kind: 'file', id: again.body.id }] })).status).toBe(404);
    expect((await B('POST', '/silo/v1/trash/purge', { items: [{ kind: 'file', id: again.body.id }] })).body).toEqual({ purged: 1 });
    expect((await A('GET', `/silo/v1/entries/${id}/files/doc.txt`)).body).toBe('bytes of A');
  });

  it('takes a file announced by its hash, and its upload url, for the caller’s entry only', async () => {
    const { id } = await sharedEntry();
    const bytes = randomBytes(3000);
    const announce = { name: 'scan.pdf', sha256: sha256(bytes), size: bytes.length, mime: 'application/pdf', key: 'scan' };
    // Both companies announce the same file id and key: two announcements, two urls.
    const ofA = await A('PUT', `/silo/v1/entries/${id}/files/scan`, announce);
    const ofB = await B('PUT', `/silo/v1/entries/${id}/files/scan`, announce);
    expect([ofA.body.stored, ofB.body.stored]).toEqual([false, false]);
    expect(ofB.body.url).not.toBe(ofA.body.url);
    const uploaded = await t.fetch(t.url + ofB.body.url, { method: 'PUT', body: bytes });
    expect(uploaded.status).toBe(200);
    expect((await B('GET', `/silo/v1/entries/${id}/files/scan`)).status).toBe(200);
    expect((await A('GET', `/silo/v1/entries/${id}/files/scan`)).status).toBe(404);
    // A POST under the key is a replay of the company's own file only.
    expect((await B('POST', `/silo/v1/entries/${id}/files`, announce)).body).toMatchObject({ id: 'scan', stored: true });
    expect((await A('POST', `/silo/v1/entries/${id}/files`, announce)).body).toMatchObject({ id: 'scan', stored: false, url: ofA.body.url });

    // A new file under a key another company's file of the id has: a file of its own, under a new id.
    const keyed = (text: string) => ({ name: 'k.txt', data: Buffer.from(text).toString('base64'), key: 'k' });
    const fileA = (await A('POST', `/silo/v1/entries/${id}/files`, keyed('k of A'))).body;
    const fileB = (await B('POST', `/silo/v1/entries/${id}/files`, keyed('k of B'))).body;
    expect(fileB.id).not.toBe(fileA.id);
    expect((await B('POST', `/silo/v1/entries/${id}/files`, keyed('k of B'))).body.id).toBe(fileB.id);
    expect((await A('GET', `/silo/v1/entries/${id}/files/${fileA.id}`)).body).toBe('k of A');
    expect((await B('GET', `/silo/v1/entries/${id}/files/${fileB.id}`)).body).toBe('k of B');
  });

  it('keeps meta and states per company', async () => {
    const { id } = await sharedEntry();
    expect((await A('PUT', `/silo/v1/entries/${id}/meta/erp`, { src: 'erp', value: 'A-77' })).status).toBe(200);
    const versionA = (await A('GET', `/silo/v1/entries/${id}`)).body.version;
    expect((await B('PUT', `/silo/v1/entries/${id}/meta/erp`, { src: 'erp', value: 'B-88' })).status).toBe(200);
    expect((await A('GET', `/silo/v1/entries/${id}/meta/erp`)).body.value).toBe('A-77');
    expect((await B('GET', `/silo/v1/entries/${id}/meta/erp`)).body.value).toBe('B-88');
    expect(((await B('GET', `/silo/v1/entries/${id}`)).body.meta as any[]).map((m) => m.value)).toEqual(['B-88']);
    expect((await B('DELETE', `/silo/v1/entries/${id}/meta/erp`)).body).toEqual({ deleted: 1 });
    expect((await B('GET', `/silo/v1/entries/${id}/meta/erp`)).status).toBe(404);
    expect((await A('GET', `/silo/v1/entries/${id}/meta/erp`)).body.value).toBe('A-77');
    expect((await A('GET', `/silo/v1/entries/${id}`)).body.version).toBe(versionA);

    const at = new Date(Date.now() - 60_000).toISOString();
    expect((await A('POST', `/silo/v1/entries/${id}/states`, { key: 'paid' })).status).toBe(200);
    expect((await B('PUT', `/silo/v1/entries/${id}/states/${at}`, { key: 'received' })).status).toBe(200);
    // The same time again from A is A's first state there, not B's (a 409 would say B has one).
    expect((await A('PUT', `/silo/v1/entries/${id}/states/${at}`, { key: 'checked' })).status).toBe(200);
    const states = async (call: Call) => ((await call('GET', `/silo/v1/entries/${id}/states`)).body.list as any[]).map((s) => s.key);
    // Newest first: the state each entry was created in is later than `at`.
    expect(await states(A)).toEqual(['paid', 'draft', 'checked']);
    expect(await states(B)).toEqual(['draft', 'received']);
    expect((await A('GET', `/silo/v1/entries/${id}`)).body.state).toBe('paid');
    expect((await B('GET', `/silo/v1/entries/${id}`)).body.state).toBe('draft');
  });

  it('keeps versions per company: list, read, diff and restore see only the caller’s history', async () => {
    const { id } = await sharedEntry();
    const patch = async (call: Call, name: string) => {
      const res = await call('PATCH', `/silo/v1/entries/${id}`, { data: { doc: { customer: { name } } }, content_type: 'application/merge-patch+json' });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    };
    // A keeps versions 1 and 2; B's file takes its version 2 without a version of history, so B keeps 1, 3 and 4.
    await patch(A, 'A second');
    await B('PUT', `/silo/v1/entries/${id}/files/f.txt`, { name: 'f.txt', data: Buffer.from('f').toString('base64') });
    await patch(B, 'B second');
    await patch(B, 'B third');
    const versions = async (call: Call) => ((await call('GET', `/silo/v1/entries/${id}/versions?limit=100`)).body.list as any[]).map((v) => [v.version, v.action]);
    expect(await versions(A)).toEqual([['2', 'changed'], ['1', 'created']]);
    expect(await versions(B)).toEqual([['4', 'changed'], ['3', 'changed'], ['1', 'created']]);
    expect((await A('GET', `/silo/v1/entries/${id}/versions/1`)).body.data.doc.customer.name).toBe('Customer of A');
    expect((await B('GET', `/silo/v1/entries/${id}/versions/1`)).body.data.doc.customer.name).toBe('Customer of B');
    expect((await B('GET', `/silo/v1/entries/${id}/versions/2`)).status).toBe(404);
    expect((await A('GET', `/silo/v1/entries/${id}/versions/4`)).status).toBe(404);
    expect((await A('GET', `/silo/v1/entries/${id}/versions/4/diff`)).status).toBe(404);
    const diff = (await B('GET', `/silo/v1/entries/${id}/versions/4/diff`)).body;
    expect(diff.changes).toContainEqual(expect.objectContaining({ path: '$.doc.customer.name', before: 'B second', after: 'B third' }));
    // The version before B's 3 is B's 1, not A's 2.
    const first = (await B('GET', `/silo/v1/entries/${id}/versions/3/diff`)).body;
    expect(first.from.version).toBe('1');
    expect(first.changes).toContainEqual(expect.objectContaining({ path: '$.doc.customer.name', before: 'Customer of B', after: 'B second' }));

    const restored = await B('POST', `/silo/v1/entries/${id}/versions/1/restore`);
    expect(restored.status).toBe(200);
    expect(customerOf(restored.body)).toBe('Customer of B');
    expect(await versions(A)).toEqual([['2', 'changed'], ['1', 'created']]);
    expect(customerOf((await A('GET', `/silo/v1/entries/${id}`)).body)).toBe('A second');
  });

  it('puts each company’s changes under the id in its own audit log', async () => {
    const { id } = await sharedEntry();
    await B('PUT', `/silo/v1/entries/${id}/meta/note`, { src: 'desk', value: 'x' });
    const actions = async (call: Call) => ((await call('GET', `/silo/v1/audit?target_id=${id}&limit=100`)).body.list as any[]).map((r) => r.action);
    expect(await actions(A)).toEqual(['entry.created']);
    expect(await actions(B)).toEqual(['entry.created']);
    const metaOfB = ((await B('GET', '/silo/v1/audit?action=meta&limit=100')).body.list as any[]).filter((r) => r.detail.entry_id === id);
    expect(metaOfB).toHaveLength(1);
    expect(((await A('GET', '/silo/v1/audit?action=meta&limit=100')).body.list as any[]).filter((r) => r.detail.entry_id === id)).toEqual([]);
  });
});

describe('one id, two companies: purge, derived indexes, jobs and exports', () => {
  it('purges the caller’s entry with everything on it, and the other company’s stays whole', async () => {
    const { id, a } = await sharedEntry();
    await A('PUT', `/silo/v1/entries/${id}/files/keep.txt`, { name: 'keep.txt', data: Buffer.from('A keeps this').toString('base64') });
    await A('PUT', `/silo/v1/entries/${id}/meta/erp`, { src: 'erp', value: 'A-1' });
    await B('PUT', `/silo/v1/entries/${id}/files/keep.txt`, { name: 'keep.txt', data: Buffer.from('B drops this').toString('base64') });
    await B('PUT', `/silo/v1/entries/${id}/meta/erp`, { src: 'erp', value: 'B-1' });
    await A('PUT', `/silo/v1/entries/${id}/files/gone.txt`, { name: 'gone.txt', data: Buffer.from('A trashed this').toString('base64') });
    const trashedByA = (await A('DELETE', `/silo/v1/entries/${id}/files/gone.txt`)).body;
    const before = (await A('GET', `/silo/v1/entries/${id}`)).body;

    expect((await B('DELETE', `/silo/v1/entries/${id}`)).status).toBe(200);
    // B's trash shows its entry once, with its own one file.
    const items = ((await B('GET', '/silo/v1/trash?kind=entry&limit=100')).body.list as any[]).filter((i) => i.id === id);
    expect(items.map((i) => [i.files, i.size, i.trashed_by.via])).toEqual([[1, 'B drops this'.length, 'http']]);
    expect((await A('POST', '/silo/v1/trash/purge', { items: [{ kind: 'entry', id }] })).status).toBe(404);
    expect((await B('POST', '/silo/v1/trash/purge', { items: [{ kind: 'entry', id }] })).body).toEqual({ purged: 1 });
    expect((await B('GET', `/silo/v1/trash/entries/${id}`)).status).toBe(404);

    const after = (await A('GET', `/silo/v1/entries/${id}`)).body;
    expect(after).toEqual(before);
    expect((await A('GET', `/silo/v1/entries/${id}/files/keep.txt`)).body).toBe('A keeps this');
    // What A put in its own trash from its entry under the id is still there, and comes back.
    expect(((await A('GET', '/silo/v1/trash?kind=file&limit=100')).body.list as any[]).map((i) => i.id)).toContain(trashedByA.id);
    expect((await A('POST', `/silo/v1/entries/${id}/files/gone.txt/restore`)).status).toBe(200);
    expect((await A('GET', `/silo/v1/entries/${id}/files/gone.txt`)).body).toBe('A trashed this');
    expect(((await A('GET', `/silo/v1/entries/${id}/versions?limit=100`)).body.list as any[]).map((v) => v.action)).toEqual(['created']);
    expect(((await A('GET', `/silo/v1/entries/${id}/versions/${a.version}`)).body.data.doc.customer.name)).toBe('Customer of A');
    expect(((await A('GET', `/silo/v1/entries/${id}/states`)).body.list as any[]).map((s) => s.key)).toEqual(['draft']);
    // B may store the id again, from nothing.
    const anew = await B('PUT', `/silo/v1/entries/${id}`, { data: invoiceDoc('ANEW-1') });
    expect(anew.status).toBe(200);
    expect(anew.body.version).toBe('1');
  });

  it('relates, by uuid and by number, only the caller’s entries, and a trashed twin hides nothing of the other company’s', async () => {
    const { id, code, a, b } = await sharedEntry();
    const invoiceB = b.data.doc;
    const credit = await B('POST', '/silo/v1/entries', { data: creditNote({ uuid: id, series: invoiceB.series, code, issue_date: invoiceB.issue_date }, `CN-${code}`), folder: 'b-folder' });
    expect(credit.status, JSON.stringify(credit.body)).toBe(200);

    const related = async (call: Call, of: string) => ((await call('GET', `/silo/v1/entries/${of}/related`)).body.list as any[]).map((e) => [e.id, e.folder]);
    expect(await related(A, id)).toEqual([]);
    expect(await related(B, id)).toEqual([[credit.body.id, 'b-folder']]);
    // Named by uuid and by number: the credit note relates to B's invoice, never to A's under the same id.
    expect(await related(B, credit.body.id)).toEqual([[id, 'b-folder']]);
    const byUuid = async (call: Call) => ((await call('GET', `/silo/v1/entries/related?uuid=${id}`)).body.list as any[]).map((e) => e.id);
    expect(await byUuid(A)).toEqual([]);
    expect(await byUuid(B)).toEqual([credit.body.id]);

    // B's invoice goes to the trash: its derived rows go, A's under the same id stay.
    expect((await B('DELETE', `/silo/v1/entries/${id}`)).status).toBe(200);
    expect(await related(B, credit.body.id)).toEqual([]);
    const exact = async (call: Call) => ((await call('GET', `/silo/v1/search?q=${invoiceB.series}-${code}`)).body.list as any[]).map((e) => [e.id, e.folder]);
    expect((await exact(A))[0]).toEqual([id, 'a-folder']);
    expect((await exact(B)).filter(([found]) => found === id)).toEqual([]);
    // A's own credit note naming its invoice finds it, by the number A's identity row still holds.
    const creditA = await A('POST', '/silo/v1/entries', { data: creditNote({ uuid: uuidv7(), series: a.data.doc.series, code, issue_date: a.data.doc.issue_date }, `CN-${code}`) });
    expect(await related(A, creditA.body.id)).toEqual([[id, 'a-folder']]);
    expect((await B('POST', `/silo/v1/entries/${id}/restore`)).status).toBe(200);
    expect(await related(B, credit.body.id)).toEqual([[id, 'b-folder']]);
  });

  it('rewrites and drops only the caller’s mentions, references and identity under a shared id', async () => {
    const { id: invoiceId, code, a, b } = await sharedEntry();
    const cn = uuidv7();
    const noteOf = (invoice: any) => creditNote({ uuid: invoiceId, series: invoice.data.doc.series, code, issue_date: invoice.data.doc.issue_date }, `CN-${code}`);
    expect((await A('PUT', `/silo/v1/entries/${cn}`, { data: noteOf(a), folder: 'a-folder' })).status).toBe(200);
    expect((await B('PUT', `/silo/v1/entries/${cn}`, { data: { ...noteOf(b), notes: [{ text: 'of B' }] }, folder: 'b-folder' })).status).toBe(200);
    const related = async (call: Call, of: string) => ((await call('GET', `/silo/v1/entries/${of}/related`)).body.list as any[]).map((e) => [e.id, e.folder]);
    const viewOf = async (call: Call) => ({
      byUuid: ((await call('GET', `/silo/v1/entries/related?uuid=${invoiceId}`)).body.list as any[]).map((e) => [e.id, e.folder]),
      ofInvoice: await related(call, invoiceId),
      ofNote: await related(call, cn),
      exact: ((await call('GET', `/silo/v1/search?q=CN-CN-${code}`)).body.list as any[]).map((e) => [e.id, e.folder])[0],
    });
    const ofA = await viewOf(A);
    expect(ofA).toEqual({ byUuid: [[cn, 'a-folder']], ofInvoice: [[cn, 'a-folder']], ofNote: [[invoiceId, 'a-folder']], exact: [cn, 'a-folder'] });
    expect(await viewOf(B)).toEqual({ byUuid: [[cn, 'b-folder']], ofInvoice: [[cn, 'b-folder']], ofNote: [[invoiceId, 'b-folder']], exact: [cn, 'b-folder'] });

    // B's change writes B's derived rows again, B's trash drops them: A's stay as they were.
    expect((await B('PATCH', `/silo/v1/entries/${cn}`, { tags: ['changed'] })).status).toBe(200);
    expect(await viewOf(A)).toEqual(ofA);
    expect((await B('DELETE', `/silo/v1/entries/${cn}`)).status).toBe(200);
    expect(await viewOf(A)).toEqual(ofA);
    expect(await related(B, invoiceId)).toEqual([]);
    expect((await B('POST', `/silo/v1/entries/${cn}/restore`)).status).toBe(200);
    expect(await related(B, invoiceId)).toEqual([[cn, 'b-folder']]);
  });

  it('relates by number through each company’s own number of the shared id', async () => {
    const id = uuidv7();
    const suffix = Math.random().toString(36).slice(2, 8);
    const numbers = { A: `NA-${suffix}`, B: `NB-${suffix}` };
    expect((await A('PUT', `/silo/v1/entries/${id}`, { data: invoiceDoc(numbers.A) })).status).toBe(200);
    expect((await B('PUT', `/silo/v1/entries/${id}`, { data: invoiceDoc(numbers.B) })).status).toBe(200);
    // Credit notes naming the invoice by series, code and date only (no uuid).
    const byNumber = (code: string) =>
      partialInvoice({ type: 'credit-note', series: 'CN', code: `C-${code}`, preceding: [{ type: 'standard', series: 'INV', code, issue_date: '2026-03-02' }] });
    const noteA = (await A('POST', '/silo/v1/entries', { data: byNumber(numbers.A) })).body.id;
    const noteB = (await B('POST', '/silo/v1/entries', { data: byNumber(numbers.B) })).body.id;
    const related = async (call: Call) => ((await call('GET', `/silo/v1/entries/${id}/related`)).body.list as any[]).map((e) => e.id);
    expect(await related(A)).toEqual([noteA]);
    expect(await related(B)).toEqual([noteB]);
  });

  it('refuses to trash an entry for a job working on the company’s own entry only', async () => {
    const { id } = await sharedEntry();
    // A job queued but not run (the runner is stopped), as a step under way would be.
    await t.service.jobs.stop();
    try {
      const wf = await A('PUT', `/transform/v1/workflows/${uuidv7()}`, { name: 'Tag it', steps: [{ provider: 'silo.tags', config: { add: ['x'] } }] });
      expect(wf.status, JSON.stringify(wf.body)).toBe(200);
      const job = await A('POST', '/transform/v1/jobs', { workflow_id: wf.body.id, silo_entry_id: id });
      expect(job.status, JSON.stringify(job.body)).toBe(200);
      expect((await B('DELETE', `/silo/v1/entries/${id}`)).status).toBe(200);
      expect((await A('DELETE', `/silo/v1/entries/${id}`)).status).toBe(409);
    } finally {
      t.service.jobs.start();
    }
  });

  it('names the company’s own job as who changed its entry, though the other company’s job works on the same id', async () => {
    const { id } = await sharedEntry();
    await t.service.jobs.stop();
    const jobs: Record<'A' | 'B', string> = { A: '', B: '' };
    try {
      for (const [who, call] of [['A', A], ['B', B]] as const) {
        const wf = await call('PUT', `/transform/v1/workflows/${uuidv7()}`, { name: `Send ${who}`, steps: [{ provider: 'silo.state', config: { state: 'sent' } }] });
        expect(wf.status, JSON.stringify(wf.body)).toBe(200);
        jobs[who] = (await call('POST', '/transform/v1/jobs', { workflow_id: wf.body.id, silo_entry_id: id })).body.id;
      }
    } finally {
      t.service.jobs.start();
    }
    // A's job runs first, while B's (newer) still waits on B's entry under the same id.
    expect((await A('GET', `/transform/v1/jobs/${jobs.A}?wait=20`)).body.status).toBe('OK');
    expect((await B('GET', `/transform/v1/jobs/${jobs.B}?wait=20`)).body.status).toBe('OK');
    const changedBy = async (call: Call) => ((await call('GET', `/silo/v1/audit?target_id=${id}&action=entry.changed`)).body.list as any[]).map((r) => r.actor.id);
    expect(await changedBy(A)).toEqual([jobs.A]);
    expect(await changedBy(B)).toEqual([jobs.B]);
  });

  it('exports each company’s own entry and files under the id', async () => {
    const { id } = await sharedEntry();
    await A('PUT', `/silo/v1/entries/${id}/files/doc.txt`, { name: 'doc.txt', data: Buffer.from('bytes of A').toString('base64') });
    await B('PUT', `/silo/v1/entries/${id}/files/doc.txt`, { name: 'doc.txt', data: Buffer.from('bytes of B').toString('base64') });

    const zipOf = async (token: string) => {
      const res = await download(t, '/silo/v1/exports/zip', { ids: [id] }, token);
      expect(res.status, JSON.stringify(res.json)).toBe(200);
      return unzip(res.bytes);
    };
    for (const [token, who] of [[t.token, 'A'], [tokenB, 'B']] as const) {
      const files = await zipOf(token);
      const envelope = Object.entries(files).find(([name]) => name.endsWith('/envelope.json'))!;
      expect(JSON.parse(textOf(envelope[1])).doc.customer.name).toBe(`Customer of ${who}`);
      const attached = Object.entries(files).filter(([name]) => name.includes('/files/'));
      expect(attached.map(([, bytes]) => textOf(bytes))).toEqual([`bytes of ${who}`]);
    }
    const csv = await download(t, '/silo/v1/exports/csv', { ids: [id] }, tokenB);
    const rows = csvObjects(textOf(csv.bytes).replace(/^\uFEFF/, ''));
    expect(rows.map((r) => [r.entry_id, r.folder])).toEqual([[id, 'b-folder']]);
  });
});
