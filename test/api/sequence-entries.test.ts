import { v1 as uuidv1, v4 as uuidv4, v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToken } from '../../src-main/core/access/tokens.ts';
import { startTestServer, type TestServer } from './harness.ts';
import { allEntries, createSeries, issue, verify } from './sequence-helpers.ts';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

describe('issuing entries', () => {
  it('codes each entry prefix + zero-padded index + suffix, from start', async () => {
    const cases: Array<[Record<string, unknown>, string[]]> = [
      [{}, ['1', '2', '3']],
      [{ padding: 4 }, ['0001', '0002', '0003']],
      [{ prefix: 'F-', padding: 5, suffix: '/26' }, ['F-00001/26', 'F-00002/26', 'F-00003/26']],
      [{ prefix: 'INV ', start: 98, padding: 2 }, ['INV 98', 'INV 99', 'INV 100']],
      [{ suffix: '-B', start: 0, padding: 3 }, ['000-B', '001-B', '002-B']],
      [{ prefix: 'X', padding: 2, start: 12345 }, ['X12345', 'X12346', 'X12347']],
      [{ prefix: 'Año·', padding: 20, start: 7 }, ['Año·00000000000000000007', 'Año·00000000000000000008', 'Año·00000000000000000009']],
    ];
    for (const [fields, codes] of cases) {
      const series = await createSeries(t, fields);
      const issued = [];
      for (let i = 0; i < codes.length; i++) issued.push(await issue(t, series.id));
      expect(issued.map((e) => e.code), JSON.stringify(fields)).toEqual(codes);
      const start = (fields.start as number | undefined) ?? 1;
      expect(issued.map((e) => e.index)).toEqual([start, start + 1, start + 2]);
      const head = (await t.call('GET', `/sequence/v1/series/${series.id}`)).body;
      expect(head.last_index).toBe(start + 2);
      expect(head.last_entry_id).toBe(issued[2].id);
    }
  });

  it('links each entry to the one before and answers the interface fields', async () => {
    const series = await createSeries(t, { prefix: 'L' });
    const a = await issue(t, series.id, { meta: { customer: 'Acme', ref: 'PO-1' } });
    const b = await issue(t, series.id, { id: undefined, meta: {} });
    expect(a.previous_id).toBeUndefined();
    expect(b.previous_id).toBe(a.id);
    expect(Object.keys(a).sort()).toEqual(['code', 'created_at', 'id', 'index', 'meta', 'series_id', 'sigs', 'updated_at']);
    expect(a).toMatchObject({ series_id: series.id, meta: { customer: 'Acme', ref: 'PO-1' }, code: 'L1', index: 1 });
    expect(a.sigs).toHaveLength(1);
    const got = await t.call('GET', `/sequence/v1/series/${series.id}/entries/${b.id}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(b);
  });

  it('accepts any UUID version as the entry id and the same id in the body', async () => {
    const series = await createSeries(t);
    for (const id of [uuidv1(), uuidv4(), uuidv7()]) {
      const res = await t.call('PUT', `/sequence/v1/series/${series.id}/entries/${id}`, { id });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.id).toBe(id);
    }
    const upper = uuidv4().toUpperCase();
    const res = await t.call('PUT', `/sequence/v1/series/${series.id}/entries/${upper}`, {});
    expect(res.body.id).toBe(upper.toLowerCase());
  });

  it('issues 200 concurrent PUTs from several clients as indexes 1..200, gapless, unique, chained', async () => {
    const series = await createSeries(t, { prefix: 'C-', padding: 4 });
    const company = (await t.service.db.first(t.service.db.q.selectFrom('companies').select('id')))!.id;
    const tokens = [t.token];
    for (const i of [1, 2, 3]) tokens.push((await createToken(t.service.db, company, 'user', `client ${i}`)).secret);
    const ids = Array.from({ length: 200 }, () => uuidv4());
    const put = (id: string, i: number) =>
      fetch(`${t.url}/sequence/v1/series/${series.id}/entries/${id}`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${tokens[i % tokens.length]}`, 'content-type': 'application/json' },
        body: JSON.stringify({ meta: { client: String(i % tokens.length) } }),
      }).then(async (r) => ({ status: r.status, body: await r.json() }));
    // Every twentieth request is sent twice at once: a retry racing its original.
    const requests = ids.flatMap((id, i) => (i % 20 === 0 ? [put(id, i), put(id, i)] : [put(id, i)]));
    const results = await Promise.all(requests);
    for (const r of results) expect(r.status, JSON.stringify(r.body)).toBe(200);

    const entries = await allEntries(t, series.id, 37);
    expect(entries).toHaveLength(200);
    expect(entries.map((e) => e.index)).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
    expect(new Set(entries.map((e) => e.code)).size).toBe(200);
    expect(new Set(entries.map((e) => e.id))).toEqual(new Set(ids));
    entries.forEach((e, i) => {
      expect(e.code).toBe(`C-${String(i + 1).padStart(4, '0')}`);
      expect(e.previous_id).toBe(i === 0 ? undefined : entries[i - 1].id);
    });
    // A racing duplicate got the very entry its original got.
    const byId = new Map(entries.map((e) => [e.id, e]));
    for (const r of results) expect(r.body).toEqual(byId.get(r.body.id));

    const head = (await t.call('GET', `/sequence/v1/series/${series.id}`)).body;
    expect(head).toMatchObject({ last_index: 200, last_entry_id: entries[199].id });
    expect(await verify(t, series.id)).toEqual({ valid: true, count: 200 });
  });

  it('numbers 8 issues sent at once 1..8, each at its first try (the head is read locked), and the chain verifies', async () => {
    const series = await createSeries(t, { prefix: 'L-' });
    // Every try of every transaction of its own is counted: PostgreSQL tries a transaction again after a
    // unique violation (pg-db.ts), which is how two issues that read the same head would show.
    const { db } = t.service;
    const tx = db.tx.bind(db);
    let tries = 0;
    let transactions = 0;
    db.tx = ((fn, opts) => {
      if (db.origin !== undefined) return tx(fn, opts);
      transactions++;
      return tx(() => {
        tries++;
        return fn();
      }, opts);
    }) as typeof db.tx;
    let issued: any[];
    try {
      issued = await Promise.all(Array.from({ length: 8 }, (_, i) => issue(t, series.id, { meta: { n: String(i) } })));
    } finally {
      db.tx = tx;
    }
    expect(transactions).toBeGreaterThanOrEqual(8);
    expect(tries).toBe(transactions);

    expect(issued.map((e) => e.index).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    const entries = await allEntries(t, series.id);
    expect(entries.map((e) => e.index)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(new Set(entries.map((e) => e.id))).toEqual(new Set(issued.map((e) => e.id)));
    entries.forEach((e, i) => expect(e.previous_id).toBe(i === 0 ? undefined : entries[i - 1].id));
    expect(await verify(t, series.id)).toEqual({ valid: true, count: 8 });
  });

  it('answers a replay with the same entry and refuses the id with another body', async () => {
    const series = await createSeries(t);
    const other = await createSeries(t);
    const id = uuidv4();
    const body = { meta: { doc: 'A-1' }, sig: 'eyJhbGciOiJFUzI1NiJ9.eyJ4IjoxfQ.c2ln' };
    const first = await issue(t, series.id, body, id);
    expect(first.sigs).toHaveLength(2);
    expect(first.sigs[1]).toBe(body.sig);

    const again = await t.call('PUT', `/sequence/v1/series/${series.id}/entries/${id}`, { meta: { doc: 'A-1' }, sig: body.sig });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first);

    for (const changed of [{ meta: { doc: 'A-2' } }, { meta: { doc: 'A-1' } }, { ...body, sig: 'eyJhbGciOiJFUzI1NiJ9.eyJ4IjoyfQ.c2ln' }]) {
      const res = await t.call('PUT', `/sequence/v1/series/${series.id}/entries/${id}`, changed);
      expect(res.status, JSON.stringify(changed)).toBe(409);
      expect(res.body.key).toBe('conflict');
      expect(res.body.message).toContain(id);
    }
    const elsewhere = await t.call('PUT', `/sequence/v1/series/${other.id}/entries/${id}`, body);
    expect(elsewhere.status).toBe(409);

    const head = (await t.call('GET', `/sequence/v1/series/${series.id}`)).body;
    expect(head.last_index).toBe(1);
    expect((await t.call('GET', `/sequence/v1/series/${other.id}`)).body.last_index).toBe(0);
    // The next new id still gets the next number: nothing was taken by the replays.
    expect((await issue(t, series.id)).index).toBe(2);
  });

  it('refuses bad entry bodies with 422 and unknown series or entries with 404', async () => {
    const series = await createSeries(t);
    const cases: Array<[unknown, string]> = [
      [{ sig: 'only.two' }, '$.sig'],
      [{ sig: 'a.b.c.d' }, '$.sig'],
      [{ sig: 'a+b.c.d' }, '$.sig'],
      [{ meta: { k: 1 } }, '$.meta.k'],
      [{ meta: { 'bad key': 'v' } }, '$.meta'],
      [{ meta: 'text' }, '$.meta'],
      [{ id: uuidv4() }, '$.id'],
    ];
    for (const [body, field] of cases) {
      const res = await t.call('PUT', `/sequence/v1/series/${series.id}/entries/${uuidv4()}`, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(Object.keys(res.body.fields ?? {}).some((k) => k.startsWith(field)), JSON.stringify(res.body)).toBe(true);
    }
    expect((await t.call('GET', `/sequence/v1/series/${series.id}`)).body.last_index).toBe(0);

    expect((await t.call('PUT', `/sequence/v1/series/${uuidv4()}/entries/${uuidv4()}`, {})).status).toBe(404);
    expect((await t.call('PUT', `/sequence/v1/series/${series.id}/entries/nope`, {})).status).toBe(400);
    expect((await t.call('GET', `/sequence/v1/series/${series.id}/entries/${uuidv4()}`)).status).toBe(404);
    const entry = await issue(t, series.id);
    const other = await createSeries(t);
    expect((await t.call('GET', `/sequence/v1/series/${other.id}/entries/${entry.id}`)).status).toBe(404);
  });

  it('pages entries by index both ways with cursors that never skip or repeat', async () => {
    const series = await createSeries(t);
    for (let i = 0; i < 23; i++) await issue(t, series.id);
    const up = await allEntries(t, series.id, 5);
    expect(up.map((e) => e.index)).toEqual(Array.from({ length: 23 }, (_, i) => i + 1));
    const down = await allEntries(t, series.id, 4, false);
    expect(down.map((e) => e.index)).toEqual(Array.from({ length: 23 }, (_, i) => 23 - i));

    const page = await t.call('GET', `/sequence/v1/series/${series.id}/entries`);
    expect(page.body.limit).toBe(20);
    expect(page.body.list).toHaveLength(20);
    const next = await t.call('GET', `/sequence/v1/series/${series.id}/entries?cursor=${encodeURIComponent(page.body.next_cursor)}`);
    expect(next.body.cursor).toBe(page.body.next_cursor);
    expect(next.body.list.map((e: any) => e.index)).toEqual([21, 22, 23]);
    expect(next.body.next_cursor).toBeUndefined();

    const other = await createSeries(t);
    const misplaced = await t.call('GET', `/sequence/v1/series/${other.id}/entries?cursor=${encodeURIComponent(page.body.next_cursor)}`);
    expect(misplaced.status).toBe(400);
    expect((await t.call('GET', `/sequence/v1/series/${series.id}/entries?limit=101`)).status).toBe(400);
  });

  it('keeps one writer: a copy issued by another instance refuses new entries and changes with 409', async () => {
    const series = await createSeries(t, { prefix: 'W' });
    const kept = await issue(t, series.id, { meta: { a: '1' } });
    const elsewhere = uuidv7();
    await t.service.db.tx(() => t.service.db.sqlRun('UPDATE series SET issuer = ? WHERE id = ?', [elsewhere, series.id]), { origin: 'local' });

    const refused = await t.call('PUT', `/sequence/v1/series/${series.id}/entries/${uuidv4()}`, {});
    expect(refused.status).toBe(409);
    expect(refused.body.message).toContain(elsewhere);
    expect(refused.body.message).toMatch(/read-only copy/);
    expect((await t.call('PATCH', `/sequence/v1/series/${series.id}`, { name: 'renamed here' })).status).toBe(409);
    expect((await t.call('PUT', `/sequence/v1/series/${series.id}`, { name: 'renamed here', prefix: 'W' })).status).toBe(409);

    // Reading the copy, and replaying what it already holds, still work.
    expect((await t.call('PUT', `/sequence/v1/series/${series.id}/entries/${kept.id}`, { meta: { a: '1' } })).body).toEqual(kept);
    const head = (await t.call('GET', `/sequence/v1/series/${series.id}`)).body;
    expect(head).toMatchObject({ issuer: elsewhere, last_index: 1 });

    await t.service.db.tx(() => t.service.db.sqlRun('UPDATE series SET issuer = ? WHERE id = ?', [t.service.instanceId, series.id]), { origin: 'local' });
    expect((await issue(t, series.id)).code).toBe('W2');
  });
});
