import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { oneLineInvoice } from './gobl-helpers.ts';
import { startTestServer, type TestServer } from './harness.ts';

/** Issue 15: entry states as the hosted service keeps them (GET, POST …/states, PUT …/states/{at}). */
let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

async function newEntry(code: string) {
  const res = await t.call('POST', '/silo/v1/entries', { data: oneLineInvoice(code) });
  expect(res.status).toBe(200);
  return res.body;
}

describe('entry states', () => {
  it('lists the state an entry was created in', async () => {
    const e = await newEntry('ST-1');
    const res = await t.call('GET', `/silo/v1/entries/${e.id}/states`);
    expect(res.status).toBe(200);
    expect(res.body.list).toEqual([{ id: `${e.id}:${e.created_at}`, key: 'draft', created_at: e.created_at, src: 'silo', meta: {}, faults: [] }]);
    // Implied by the entry until its state changes (implied-first-state.ts): no row of its own.
    const stored = await t.service.db.sql<{ n: number | string }>('SELECT count(*) AS n FROM entry_states WHERE entry_id = ?', [e.id]);
    expect(Number(stored[0].n)).toBe(0);
  });

  it('POST sets the state now, with notes and meta, and the entry takes it', async () => {
    const e = await newEntry('ST-2');
    const res = await t.call('POST', `/silo/v1/entries/${e.id}/states`, { key: 'paid', notes: 'by transfer', meta: { bank: 'ES91' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ key: 'paid', notes: 'by transfer', meta: { bank: 'ES91' }, src: 'api', faults: [] });
    expect(res.body.id).toBe(`${e.id}:${res.body.created_at}`);
    expect(res.body.src_id).toBeTruthy();
    const entry = (await t.call('GET', `/silo/v1/entries/${e.id}`)).body;
    expect(entry.state).toBe('paid');
    expect(Number(entry.version)).toBe(Number(e.version) + 1);
    const states = (await t.call('GET', `/silo/v1/entries/${e.id}/states`)).body.list;
    expect(states.map((s: any) => [s.key, s.src])).toEqual([['paid', 'api'], ['draft', 'silo']]);
    // The same state again is history, not a change of the entry.
    await t.call('POST', `/silo/v1/entries/${e.id}/states`, { key: 'paid' });
    expect((await t.call('GET', `/silo/v1/entries/${e.id}`)).body.version).toBe(entry.version);
  });

  it('records a state changed any other way (a PATCH), once', async () => {
    const e = await newEntry('ST-3');
    await t.call('PATCH', `/silo/v1/entries/${e.id}`, { state: 'sent' });
    await t.call('PATCH', `/silo/v1/entries/${e.id}`, { folder: 'elsewhere' });
    const states = (await t.call('GET', `/silo/v1/entries/${e.id}/states`)).body.list;
    expect(states.map((s: any) => [s.key, s.src])).toEqual([['sent', 'silo'], ['draft', 'silo']]);
  });

  it('PUT records a state at its time: an earlier one joins the history, the newest is the entry state', async () => {
    const e = await newEntry('ST-4');
    const earlier = new Date(Date.parse(e.created_at) - 60_000).toISOString();
    const put = await t.call('PUT', `/silo/v1/entries/${e.id}/states/${earlier}`, { key: 'received' });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ key: 'received', created_at: earlier, id: `${e.id}:${earlier}` });
    expect((await t.call('GET', `/silo/v1/entries/${e.id}`)).body.state).toBe('draft');

    const later = new Date(Date.parse(e.created_at) + 1).toISOString();
    expect((await t.call('PUT', `/silo/v1/entries/${e.id}/states/${later}`, { key: 'registered' })).status).toBe(200);
    expect((await t.call('GET', `/silo/v1/entries/${e.id}`)).body.state).toBe('registered');
    const states = (await t.call('GET', `/silo/v1/entries/${e.id}/states`)).body.list;
    expect(states.map((s: any) => s.key)).toEqual(['registered', 'draft', 'received']);
  });

  it('PUT under the same time is idempotent; another body there is a 409', async () => {
    const e = await newEntry('ST-5');
    const at = '2026-01-02T03:04:05.678Z';
    const a = await t.call('PUT', `/silo/v1/entries/${e.id}/states/${at}`, { key: 'sent', notes: 'n' });
    const b = await t.call('PUT', `/silo/v1/entries/${e.id}/states/${at}`, { key: 'sent', notes: 'n' });
    expect(b.status).toBe(200);
    expect(b.body).toEqual(a.body);
    expect((await t.call('PUT', `/silo/v1/entries/${e.id}/states/${at}`, { key: 'void' })).status).toBe(409);
    expect((await t.call('GET', `/silo/v1/entries/${e.id}/states`)).body.list).toHaveLength(2);
  });

  it('refuses a time ahead of the clock, a bad time or key, and entries it cannot see', async () => {
    const e = await newEntry('ST-6');
    const future = new Date(Date.now() + 3_600_000).toISOString();
    expect((await t.call('PUT', `/silo/v1/entries/${e.id}/states/${future}`, { key: 'paid' })).status).toBe(422);
    expect((await t.call('PUT', `/silo/v1/entries/${e.id}/states/yesterday`, { key: 'paid' })).status).toBe(400);
    expect((await t.call('POST', `/silo/v1/entries/${e.id}/states`, { key: 'Paid!' })).status).toBe(422);
    expect((await t.call('POST', `/silo/v1/entries/${e.id}/states`, { notes: 'no key' })).status).toBe(422);
    expect((await t.call('POST', `/silo/v1/entries/${e.id}/states`, { key: 'paid', meta: { n: 1 } })).status).toBe(422);
    expect((await t.call('GET', '/silo/v1/entries/0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b/states')).status).toBe(404);
    const other = (await t.call('POST', '/access/v1/companies', { name: 'Other S.L.' })).body.owner_token;
    const res = await fetch(`${t.url}/silo/v1/entries/${e.id}/states`, { headers: { authorization: `Bearer ${other}` } });
    expect(res.status).toBe(404);
  });
});
