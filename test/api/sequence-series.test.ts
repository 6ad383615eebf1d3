import { v4 as uuidv4, v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness.ts';
import { createSeries, issue } from './sequence-helpers.ts';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

describe('series', () => {
  it('creates a series with the interface fields, signed by the service', async () => {
    const id = uuidv4();
    const res = await t.call('PUT', `/sequence/v1/series/${id}`, {
      id,
      name: 'Sales 2026',
      description: 'Invoices to customers',
      code: 'INV',
      prefix: 'F-',
      padding: 5,
      suffix: '/26',
      start: 100,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      id,
      name: 'Sales 2026',
      description: 'Invoices to customers',
      code: 'INV',
      prefix: 'F-',
      padding: 5,
      suffix: '/26',
      start: 100,
      last_index: 0,
      issuer: t.service.instanceId,
    });
    expect(res.body.last_entry_id).toBeUndefined();
    expect(res.body.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(res.body.updated_at).toBe(res.body.created_at);
    expect(res.body.sigs).toHaveLength(1);
    expect(res.body.sigs[0].split('.')).toHaveLength(3);

    const got = await t.call('GET', `/sequence/v1/series/${id}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(res.body);
  });

  it('fills defaults: no prefix or suffix, no padding, numbering from 1', async () => {
    const series = await createSeries(t, { name: 'Plain' });
    expect(series).toMatchObject({ description: '', code: '', prefix: '', padding: 0, suffix: '', start: 1, last_index: 0 });
  });

  it('answers the same series when the same PUT comes again, and lists every series of the company', async () => {
    const id = uuidv4();
    const body = { name: 'Replayed', prefix: 'R', padding: 2 };
    const first = await t.call('PUT', `/sequence/v1/series/${id}`, body);
    const again = await t.call('PUT', `/sequence/v1/series/${id}`, body);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);

    const list = await t.call('GET', '/sequence/v1/series');
    expect(list.status).toBe(200);
    const mine = list.body.list.filter((s: any) => s.id === id);
    expect(mine).toEqual([first.body]);
    const created = list.body.list.map((s: any) => s.created_at);
    expect(created).toEqual([...created].sort());
  });

  it('keeps a client signature after the service signature', async () => {
    const sig = 'eyJhbGciOiJFUzI1NiJ9.eyJ4IjoxfQ.c2lnbmF0dXJl';
    const series = await createSeries(t, { name: 'Client-signed', sig });
    expect(series.sigs).toHaveLength(2);
    expect(series.sigs[1]).toBe(sig);
  });

  it('may change its numbering while it has no entry, but not once it has one', async () => {
    const series = await createSeries(t, { name: 'Draft numbering', prefix: 'A-', padding: 3 });
    const changed = await t.call('PUT', `/sequence/v1/series/${series.id}`, { name: 'Draft numbering', prefix: 'B-', padding: 4 });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body).toMatchObject({ prefix: 'B-', padding: 4 });
    expect(changed.body.sigs[0]).not.toBe(series.sigs[0]);

    const first = await issue(t, series.id);
    expect(first.code).toBe('B-0001');

    const refused = await t.call('PUT', `/sequence/v1/series/${series.id}`, { name: 'Draft numbering', prefix: 'C-', padding: 4 });
    expect(refused.status).toBe(409);
    expect(refused.body.key).toBe('conflict');
    expect(refused.body.message).toMatch(/already issued 1 entry/);
    expect(refused.body.message).toMatch(/prefix/);
    expect(refused.body.message).toMatch(/only name and description can/);

    for (const patch of [{ start: 50 }, { padding: 9 }, { suffix: '-X' }, { code: 'NEW' }]) {
      const res = await t.call('PATCH', `/sequence/v1/series/${series.id}`, patch);
      expect(res.status, JSON.stringify(patch)).toBe(409);
      expect(res.body.message).toContain(Object.keys(patch)[0]);
    }
    const after = await t.call('GET', `/sequence/v1/series/${series.id}`);
    expect(after.body).toMatchObject({ prefix: 'B-', padding: 4, suffix: '', start: 1, code: '', last_index: 1 });
    expect(after.body.sigs).toEqual(changed.body.sigs);
  });

  it('renames and re-describes a series that has entries, by PATCH and by PUT', async () => {
    const series = await createSeries(t, { name: 'Old name', prefix: 'N' });
    await issue(t, series.id);

    const patched = await t.call('PATCH', `/sequence/v1/series/${series.id}`, { name: 'New name', description: 'now described' });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect(patched.body).toMatchObject({ name: 'New name', description: 'now described', prefix: 'N', last_index: 1 });

    const put = await t.call('PUT', `/sequence/v1/series/${series.id}`, { name: 'Put name', prefix: 'N' });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(put.body).toMatchObject({ name: 'Put name', description: '', prefix: 'N', last_index: 1 });
    expect((await t.call('GET', `/sequence/v1/series/${series.id}`)).body.name).toBe('Put name');
  });

  it('does not undo a PATCH when the creating PUT is retried later', async () => {
    const id = uuidv4();
    const body = { name: 'Original', prefix: 'O' };
    await t.call('PUT', `/sequence/v1/series/${id}`, body);
    await t.call('PATCH', `/sequence/v1/series/${id}`, { name: 'Renamed' });
    const retried = await t.call('PUT', `/sequence/v1/series/${id}`, body);
    expect(retried.status).toBe(200);
    expect(retried.body.name).toBe('Renamed');
  });

  it('refuses invalid fields with 422 by JSON path', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ name: 'x', padding: 21 }, '$.padding'],
      [{ name: 'x', padding: -1 }, '$.padding'],
      [{ name: 'x', padding: 1.5 }, '$.padding'],
      [{ name: 'x', start: -1 }, '$.start'],
      [{ name: 'x', start: 2.5 }, '$.start'],
      [{ name: 'x', start: '3' }, '$.start'],
      [{ name: 'x', prefix: 'A\u0000' }, '$.prefix'],
      [{ name: 'x', prefix: ' lead' }, '$.prefix'],
      [{ name: 'x', prefix: 'P'.repeat(21) }, '$.prefix'],
      [{ name: 'x', suffix: 'B\n' }, '$.suffix'],
      [{ name: 'x', suffix: 'trail ' }, '$.suffix'],
      [{ name: 'x', suffix: 'S'.repeat(21) }, '$.suffix'],
      [{ name: 'x', code: ' INV' }, '$.code'],
      [{ name: '' }, '$.name'],
      [{}, '$.name'],
      [{ name: 'x', sig: 'not-a-jws' }, '$.sig'],
      [{ name: 'x', id: uuidv4() }, '$.id'],
    ];
    for (const [body, field] of cases) {
      const res = await t.call('PUT', `/sequence/v1/series/${uuidv4()}`, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.key).toBe('validation');
      expect(Object.keys(res.body.fields), JSON.stringify(body)).toContain(field);
    }
    const patch = await t.call('PATCH', `/sequence/v1/series/${(await createSeries(t)).id}`, { last_index: 5 });
    expect(patch.status).toBe(422);
  });

  it('answers 400 for a malformed id, 404 for an unknown one', async () => {
    expect((await t.call('GET', '/sequence/v1/series/not-a-uuid')).status).toBe(400);
    expect((await t.call('PUT', '/sequence/v1/series/123', { name: 'x' })).status).toBe(400);
    expect((await t.call('GET', '/sequence/v1/series/not-a-uuid/entries')).status).toBe(400);
    const missing = await t.call('GET', `/sequence/v1/series/${uuidv7()}`);
    expect(missing.status).toBe(404);
    expect(missing.body.key).toBe('not-found');
    expect((await t.call('PATCH', `/sequence/v1/series/${uuidv7()}`, { name: 'y' })).status).toBe(404);
    expect((await t.call('GET', `/sequence/v1/series/${uuidv7()}/verify`)).status).toBe(404);
  });

  it('needs a token for everything but the public keys', async () => {
    const res = await fetch(`${t.url}/sequence/v1/series`);
    expect(res.status).toBe(401);
    const keys = await fetch(`${t.url}/sequence/v1/keys`);
    expect(keys.status).toBe(200);
  });
});
