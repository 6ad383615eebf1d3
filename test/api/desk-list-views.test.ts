import { v4 as uuidv4 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness.ts';

let t: TestServer;
let other: Record<string, string>;
let user: Record<string, string>;

beforeAll(async () => {
  t = await startTestServer();
  const company = await t.call('POST', '/access/v1/companies', { name: 'Other books' });
  other = { authorization: `Bearer ${company.body.owner_token}` };
  const token = await t.call('POST', '/access/v1/tokens', { name: 'clerk', kind: 'user' });
  user = { authorization: `Bearer ${token.body.token}` };
});
afterAll(() => t.close());

const unpaid = {
  name: 'Unpaid Q1',
  filters: { state: 'sent', date_from: '2025-01-01', date_to: '2025-03-31' },
  columns: ['number', 'customer', 'due_date', 'total'],
  sort: { by: 'due_date', ascending: true },
};

describe('saved views of the entry list', () => {
  it('keeps at most 200 views per company, also when saves arrive at once', async () => {
    const company = await t.call('POST', '/access/v1/companies', { name: 'Many views' });
    const owner = { authorization: `Bearer ${company.body.owner_token}` };
    const save = (n: number) => t.call('PUT', `/silo/v1/views/${uuidv4()}`, { name: `View ${n}`, columns: ['total'] }, owner);
    for (let n = 0; n < 196; n++) expect((await save(n)).status).toBe(200);
    const together = await Promise.all(Array.from({ length: 8 }, (_, i) => save(1000 + i)));
    expect(together.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 422, 422, 422, 422]);
    expect((await t.call('GET', '/silo/v1/views', undefined, owner)).body.list).toHaveLength(200);
  });

  it('saves filters, columns and sort per company, lists them by name, replaces and deletes them', async () => {
    const id = uuidv4();
    const saved = await t.call('PUT', `/silo/v1/views/${id}`, unpaid);
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body).toMatchObject({ id, ...unpaid });
    const second = await t.call('PUT', `/silo/v1/views/${uuidv4()}`, { name: 'All by total', columns: ['total'], sort: { by: 'total', ascending: false } }, user);
    expect(second.status).toBe(200);
    expect(second.body.filters).toEqual({});

    const list = await t.call('GET', '/silo/v1/views');
    expect(list.body.list.map((v: any) => v.name)).toEqual(['All by total', 'Unpaid Q1']);

    // The same PUT again replaces it (renamed, re-sorted); created_at stays.
    const renamed = await t.call('PUT', `/silo/v1/views/${id}`, { ...unpaid, name: 'Unpaid', sort: { by: 'total', ascending: false } });
    expect(renamed.body).toMatchObject({ name: 'Unpaid', sort: { by: 'total', ascending: false }, created_at: saved.body.created_at });

    // Another company sees none of it; the same id is its own view there, and deleting it leaves ours.
    expect((await t.call('GET', '/silo/v1/views', undefined, other)).body.list).toEqual([]);
    expect((await t.call('PUT', `/silo/v1/views/${id}`, { ...unpaid, name: 'Theirs' }, other)).status).toBe(200);
    expect((await t.call('GET', '/silo/v1/views')).body.list.map((v: any) => v.name)).toEqual(['All by total', 'Unpaid']);
    expect((await t.call('DELETE', `/silo/v1/views/${id}`, undefined, other)).body).toEqual({ deleted: 1 });
    expect((await t.call('GET', '/silo/v1/views', undefined, other)).body.list).toEqual([]);

    expect((await t.call('DELETE', `/silo/v1/views/${id}`)).body).toEqual({ deleted: 1 });
    expect((await t.call('GET', '/silo/v1/views')).body.list.map((v: any) => v.name)).toEqual(['All by total']);
  });

  it('keeps names unique in a company and refuses what the list cannot show, by path', async () => {
    await t.call('PUT', `/silo/v1/views/${uuidv4()}`, { ...unpaid, name: 'Taken' });
    const clash = await t.call('PUT', `/silo/v1/views/${uuidv4()}`, { ...unpaid, name: 'Taken' });
    expect(clash.status).toBe(409);
    // The same name in another company is fine.
    expect((await t.call('PUT', `/silo/v1/views/${uuidv4()}`, { ...unpaid, name: 'Taken' }, other)).status).toBe(200);

    const bad = async (body: unknown) => (await t.call('PUT', `/silo/v1/views/${uuidv4()}`, body)).body;
    expect((await bad({ ...unpaid, columns: ['number', 'price'] })).fields).toHaveProperty(['$.columns[1]']);
    expect((await bad({ ...unpaid, columns: [] })).fields).toHaveProperty(['$.columns']);
    expect((await bad({ ...unpaid, columns: ['total', 'total'] })).fields).toHaveProperty(['$.columns']);
    expect((await bad({ ...unpaid, sort: { by: 'price', ascending: true } })).fields).toHaveProperty(['$.sort.by']);
    expect((await bad({ ...unpaid, filters: { state: 'Not A State' } })).fields).toHaveProperty(['$.filters.state']);
    expect((await bad({ ...unpaid, filters: { owner: 'me' } })).key).toBe('validation');
    expect((await bad({ ...unpaid, name: 'a\u0000b' })).fields).toHaveProperty(['$.name']);
    expect((await bad({ ...unpaid, name: 'x'.repeat(101) })).fields).toHaveProperty(['$.name']);
    expect((await t.call('PUT', '/silo/v1/views/not-a-uuid', unpaid)).status).toBe(400);
  });
});
