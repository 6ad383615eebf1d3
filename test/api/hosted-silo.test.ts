import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { oneLineInvoice } from './gobl-helpers.ts';
import { startTestServer, type TestServer } from './harness.ts';

/** Issue 15: the silo's shapes as the hosted service's clients read them. */
let t: TestServer;
let invoice: any;
let credit: any;
beforeAll(async () => {
  t = await startTestServer();
  invoice = (await t.call('POST', '/silo/v1/entries', { data: oneLineInvoice('HS-1', { uuid: uuidv7() }) })).body;
  const made = await t.call('POST', '/silo/v1/entries', { previous_id: invoice.id, correct: { type: 'credit-note', reason: 'returned' } });
  expect(made.status, JSON.stringify(made.body)).toBe(200);
  credit = made.body;
});
afterAll(() => t.close());

describe('version is a string, as the hosted API types it', () => {
  it('on an entry created, fetched, listed, searched, related and found by key', async () => {
    const keyed = await t.call('POST', '/silo/v1/entries', { key: 'hs-version', data: oneLineInvoice('HS-V') });
    const answers = [
      keyed.body,
      (await t.call('GET', `/silo/v1/entries/${invoice.id}`)).body,
      (await t.call('GET', '/silo/v1/entries/key/hs-version')).body,
      ...(await t.call('GET', '/silo/v1/entries?limit=10')).body.list,
      ...(await t.call('GET', '/silo/v1/search?q=HS-1')).body.list,
      ...(await t.call('GET', `/silo/v1/entries/${invoice.id}/related`)).body.list,
      ...(await t.call('GET', `/silo/v1/entries/related?uuid=${invoice.data.doc.uuid}`)).body.list,
    ];
    expect(answers.length).toBeGreaterThan(6);
    for (const entry of answers) expect(entry.version).toMatch(/^[0-9]+$/);
  });

  it('moves on with each change and is what If-Match takes back', async () => {
    const e = (await t.call('POST', '/silo/v1/entries', { data: oneLineInvoice('HS-IFM') })).body;
    const moved = await t.call('PATCH', `/silo/v1/entries/${e.id}`, { folder: 'archive' }, { 'if-match': `"${e.version}"` });
    expect(moved.status).toBe(200);
    expect(moved.body.version).not.toBe(e.version);
    const stale = await t.call('PATCH', `/silo/v1/entries/${e.id}`, { folder: 'other' }, { 'if-match': `"${e.version}"` });
    expect(stale.status).toBe(412);
  });
});

describe('snippet as the hosted API shapes it', () => {
  it("nests an invoice's parties and names its totals as GOBL does", () => {
    const totals = invoice.data.doc.totals;
    expect(invoice.snippet).toMatchObject({
      uuid: invoice.data.doc.uuid,
      type: 'standard',
      series: 'INV',
      code: 'HS-1',
      currency: 'EUR',
      issue_date: '2026-03-02',
      supplier: { name: 'Provide One S.L.', country: 'ES', tax_code: 'B98602642' },
      customer: { name: 'Sample Consumer', country: 'ES', tax_code: '54387763P' },
      total: totals.total,
      tax: totals.tax,
      total_with_tax: totals.total_with_tax,
      payable: totals.payable,
    });
    expect(typeof invoice.snippet.supplier).toBe('object');
  });

  it("gives a credit note the series, code and uuid of the invoice it corrects", () => {
    expect(credit.snippet).toMatchObject({ type: 'credit-note', p_series: 'INV', p_code: 'HS-1', p_uuid: invoice.data.doc.uuid });
  });

  it("gives a party its name, country and tax code", async () => {
    const party = await t.call('POST', '/silo/v1/entries', {
      data: { $schema: 'https://gobl.org/draft-0/org/party', name: 'Provide One S.L.', alias: 'P1', tax_id: { country: 'ES', code: 'B98602642' } },
    });
    expect(party.status, JSON.stringify(party.body)).toBe(200);
    expect(party.body.snippet).toMatchObject({ name: 'Provide One S.L.', alias: 'P1', country: 'ES', tax_code: 'B98602642' });
  });
});

describe('search answers query, and limits are the hosted ones', () => {
  it('takes the text as q or as query and answers it as query', async () => {
    for (const param of ['q', 'query']) {
      const res = await t.call('GET', `/silo/v1/search?${param}=HS-1&folder=invoices`);
      expect(res.status).toBe(200);
      expect(res.body.query).toBe('HS-1');
      expect(res.body.folder).toBe('invoices');
      expect(res.body).not.toHaveProperty('q');
      expect(res.body.list.map((e: any) => e.id)).toContain(invoice.id);
    }
    const none = await t.call('GET', '/silo/v1/search');
    expect(none.status).toBe(400);
    expect(none.body.fields.q).toBeTruthy();
  });

  it.each(['/silo/v1/entries', '/silo/v1/search?q=x', '/silo/v1/entries/related?uuid=0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b', 'related'])(
    '%s: a limit below 10 or above 100 is a 422 naming the bound, as hosted',
    async (path) => {
      const base = path === 'related' ? `/silo/v1/entries/${invoice.id}/related` : path;
      const sep = base.includes('?') ? '&' : '?';
      const low = await t.call('GET', `${base}${sep}limit=9`);
      expect(low.status).toBe(422);
      expect(low.body).toMatchObject({ key: 'validation', fields: { limit: 'must be no less than 10' } });
      const high = await t.call('GET', `${base}${sep}limit=101`);
      expect(high.body.fields.limit).toBe('must be no greater than 100');
      expect((await t.call('GET', `${base}${sep}limit=ten`)).status).toBe(400);
      expect((await t.call('GET', `${base}${sep}limit=10`)).status).toBe(200);
    },
  );
});

describe('GET /silo/v1/entries/related: by uuid, without an entry in the path', () => {
  it('finds the entries whose document mentions the uuid, with the context', async () => {
    const res = await t.call('GET', `/silo/v1/entries/related?uuid=${invoice.data.doc.uuid}`);
    expect(res.status).toBe(200);
    expect(res.body.list.map((e: any) => [e.id, e.context])).toEqual([[credit.id, 'preceding']]);
    expect(res.body.limit).toBe(20);
    const other = await t.call('GET', `/silo/v1/entries/related?uuid=${invoice.data.doc.uuid}&context=lines.item`);
    expect(other.body.list).toEqual([]);
  });

  it('needs the uuid, and finds nothing of another company', async () => {
    expect((await t.call('GET', '/silo/v1/entries/related')).status).toBe(400);
    const company = await t.call('POST', '/access/v1/companies', { name: 'Other Co' });
    const res = await fetch(`${t.url}/silo/v1/entries/related?uuid=${invoice.data.doc.uuid}`, { headers: { authorization: `Bearer ${company.body.owner_token}` } });
    expect(res.status).toBe(200);
    expect((await res.json()).list).toEqual([]);
  });

  it('pages with next_cursor, newest first, each entry once', async () => {
    const target = uuidv7();
    const ids: string[] = [];
    for (let i = 0; i < 11; i++) {
      const doc = oneLineInvoice(`HS-P${i}`, { type: 'credit-note', preceding: [{ uuid: target, code: `T-${i}`, issue_date: '2026-01-01' }] });
      const res = await t.call('POST', '/silo/v1/entries', { data: doc });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      ids.push(res.body.id);
    }
    const first = await t.call('GET', `/silo/v1/entries/related?uuid=${target}&limit=10`);
    expect(first.body.list).toHaveLength(10);
    const second = await t.call('GET', `/silo/v1/entries/related?uuid=${target}&limit=10&cursor=${encodeURIComponent(first.body.next_cursor)}`);
    expect(second.body.next_cursor).toBeUndefined();
    expect([...first.body.list, ...second.body.list].map((e: any) => e.id)).toEqual([...ids].reverse());
  });
});

describe('one replay rule for entries: the same request again answers what the first made', () => {
  it('a POST with a key made again answers the same entry, 200, as the same PUT does', async () => {
    const body = { key: 'hs-replay', folder: 'sales', data: oneLineInvoice('HS-R') };
    const first = await t.call('POST', '/silo/v1/entries', body);
    const again = await t.call('POST', '/silo/v1/entries', body);
    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(first.body.id);
    expect(again.body.version).toBe(first.body.version);
    const list = await t.call('GET', '/silo/v1/search?q=HS-R');
    expect(list.body.list.filter((e: any) => e.snippet.code === 'HS-R')).toHaveLength(1);

    const put = { key: 'hs-replay-put', data: oneLineInvoice('HS-RP') };
    const id = uuidv7();
    expect((await t.call('PUT', `/silo/v1/entries/${id}`, put)).status).toBe(200);
    const putAgain = await t.call('PUT', `/silo/v1/entries/${id}`, put);
    expect(putAgain.status).toBe(200);
    expect(putAgain.body.id).toBe(id);
  });

  it('the key with another body, or under another PUT id, is a 409', async () => {
    const body = { key: 'hs-replay-2', data: oneLineInvoice('HS-R2') };
    expect((await t.call('POST', '/silo/v1/entries', body)).status).toBe(200);
    const other = await t.call('POST', '/silo/v1/entries', { ...body, data: oneLineInvoice('HS-R2-other') });
    expect(other.status).toBe(409);
    expect(other.body.key).toBe('conflict');
    expect((await t.call('PUT', `/silo/v1/entries/${uuidv7()}`, body)).status).toBe(409);
  });

  it('two identical POSTs at once with a key make one entry and both answer it', async () => {
    const body = { key: 'hs-race', data: oneLineInvoice('HS-RACE') };
    const [a, b] = await Promise.all([t.call('POST', '/silo/v1/entries', body), t.call('POST', '/silo/v1/entries', body)]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.body.id).toBe(b.body.id);
  });
});
