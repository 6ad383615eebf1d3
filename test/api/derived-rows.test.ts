import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { creditNote, invoiceDoc } from './perf-helpers.ts';
import { startTestServer, type TestServer } from './harness.ts';
import { localEntryCount } from '../../src-main/core/sync/deletion-guard.ts';
import { ensureDefaultCompany } from '../../src-main/core/access/bootstrap.ts';

/**
 * A change to an entry writes again only the derived rows whose sources changed
 * (derived-index.ts `kept`): the document (mentions, references, search text), the
 * snippet (sort columns, search title) or the tags (search body). Whatever changes,
 * search, related and the sorted list must answer as for an entry written new.
 */
let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

const ids = (res: { body: any }) => res.body.list.map((e: any) => e.id);
const search = async (q: string) => ids(await t.call('GET', `/silo/v1/search?q=${encodeURIComponent(q)}`));
const related = async (id: string) => ids(await t.call('GET', `/silo/v1/entries/${id}/related`));
const patch = async (id: string, body: Record<string, unknown>) => {
  const res = await t.call('PATCH', `/silo/v1/entries/${id}`, body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
};

describe('derived rows after a change', () => {
  it('a change of state or folder keeps search, related and the sorted list right', async () => {
    const invoice = (await t.call('POST', '/silo/v1/entries', { data: invoiceDoc('DR-1', { customer: { name: 'Quokka Supplies' } }), tags: ['first'] })).body;
    const note = (await t.call('POST', '/silo/v1/entries', { data: creditNote(invoice.data.doc, 'DR-CN-1') })).body;
    await patch(invoice.id, { state: 'sent' });
    await patch(invoice.id, { folder: 'archive' });
    expect(await search('quokka')).toEqual([invoice.id]);
    expect(await search('first')).toContain(invoice.id);
    expect(await related(note.id)).toEqual([invoice.id]);
    expect(await related(invoice.id)).toEqual([note.id]);
    const byState = ids(await t.call('GET', '/silo/v1/entries?sort=state&ascending=true&limit=100'));
    expect(byState).toContain(invoice.id);
  });

  it('new tags are found, and the old ones no longer', async () => {
    const entry = (await t.call('POST', '/silo/v1/entries', { data: invoiceDoc('DR-2'), tags: ['wombat'] })).body;
    expect(await search('wombat')).toEqual([entry.id]);
    await patch(entry.id, { tags: ['platypus'] });
    expect(await search('platypus')).toEqual([entry.id]);
    expect(await search('wombat')).toEqual([]);
    expect((await search('DR-2'))[0]).toBe(entry.id);
  });

  it('a changed document is found by what it says now, sorts by it, and names what it now names', async () => {
    const a = (await t.call('POST', '/silo/v1/entries', { data: invoiceDoc('DR-3A', { customer: { name: 'Aardvark Ltd' } }) })).body;
    const b = (await t.call('POST', '/silo/v1/entries', { data: invoiceDoc('DR-3B', { customer: { name: 'Badger Ltd' } }) })).body;
    const note = (await t.call('POST', '/silo/v1/entries', { data: creditNote(a.data.doc, 'DR-CN-3') })).body;
    expect(await related(note.id)).toEqual([a.id]);

    await patch(a.id, { data: { doc: { customer: { name: 'Zebu Ltd' } } }, content_type: 'application/merge-patch+json' });
    expect(await search('zebu')).toEqual([a.id]);
    expect(await search('aardvark')).toEqual([]);
    const byCustomer = ids(await t.call('GET', '/silo/v1/entries?sort=customer&ascending=true&limit=100')).filter((id: string) => id === a.id || id === b.id);
    expect(byCustomer).toEqual([b.id, a.id]);

    // the note now names b instead of a
    const preceding = [{ type: 'standard', uuid: b.data.doc.uuid, series: b.data.doc.series, code: b.data.doc.code, issue_date: b.data.doc.issue_date }];
    await patch(note.id, { data: { doc: { preceding } }, content_type: 'application/merge-patch+json' });
    expect(await related(note.id)).toEqual([b.id]);
    expect(await related(a.id)).toEqual([]);
    expect(await related(b.id)).toEqual([note.id]);
  });

  it('signing changes the envelope, not the document: still found and related as before', async () => {
    const invoice = (await t.call('POST', '/silo/v1/entries', { data: invoiceDoc('DR-4', { customer: { name: 'Gecko Goods' } }) })).body;
    const note = (await t.call('POST', '/silo/v1/entries', { data: creditNote(invoice.data.doc, 'DR-CN-4') })).body;
    const signed = await patch(invoice.id, { sign: true });
    expect(signed.signed ?? signed.data.sigs?.length).toBeTruthy();
    expect(await search('gecko')).toEqual([invoice.id]);
    expect(await related(note.id)).toEqual([invoice.id]);
  });

  it('an entry back from the trash is found again', async () => {
    const entry = (await t.call('POST', '/silo/v1/entries', { data: invoiceDoc('DR-5', { customer: { name: 'Ibex Imports' } }) })).body;
    expect((await t.call('DELETE', `/silo/v1/entries/${entry.id}`)).status).toBe(200);
    expect(await search('ibex')).toEqual([]);
    expect((await t.call('POST', `/silo/v1/entries/${entry.id}/restore`)).status).toBe(200);
    expect(await search('ibex')).toEqual([entry.id]);
  });

  it('the count the sync deletion guard reads follows creates, folder moves, trash, restore and purge', async () => {
    const { db } = t.service;
    const companyKey = (await ensureDefaultCompany(db)).key;
    const direct = async () =>
      Number((await db.sqlFirst<{ n: number | string }>("SELECT count(*) AS n FROM entries WHERE company_id = ? AND folder <> 'conflicts'", [companyKey]))!.n);
    const agree = async () => expect(await localEntryCount(db, companyKey)).toBe(await direct());
    const a = (await t.call('POST', '/silo/v1/entries', { data: invoiceDoc('DG-1'), folder: 'one' })).body;
    const b = (await t.call('POST', '/silo/v1/entries', { data: invoiceDoc('DG-2'), folder: 'two' })).body;
    await agree();
    await patch(a.id, { folder: 'conflicts' });
    await agree();
    expect((await t.call('DELETE', `/silo/v1/entries/${b.id}`)).status).toBe(200);
    await agree();
    expect((await t.call('DELETE', `/silo/v1/entries/${a.id}`)).status).toBe(200);
    await agree();
    expect((await t.call('POST', `/silo/v1/entries/${b.id}/restore`)).status).toBe(200);
    await agree();
    expect((await t.call('POST', '/silo/v1/trash/purge', { items: [{ kind: 'entry', id: a.id }] })).status).toBe(200);
    await agree();
  });
});

