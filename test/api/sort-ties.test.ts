import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL } from '../../src-main/core/db/write-scopes.ts';
import { SEQ_TIED_SORTS } from '../../src-main/core/silo/sort-ties.ts';
import { CREATED_ORDER_INDEXES } from '../../src-main/core/silo/created-ties.ts';
import { allPages, importAll, invoice } from './desk-list-helpers.ts';
import { startTestServer, type TestServer } from './harness.ts';

/**
 * Ties in the sorted list: by due date, number, party or amount, entries with the same
 * value follow in the order they were stored (sort-ties.ts); by issue date or state, by
 * created_at, then as stored (created-ties.ts), as the newest-first list does. A run of
 * equal values longer than several pages is paged whole.
 */
let t: TestServer;
/** the run's entries in the order they were stored */
let stored: string[];
let others: string[];

const RUN = 37;

beforeAll(async () => {
  t = await startTestServer();
  // Equal in every sorted column but the number; stored in one order, created in the reverse one (as entries synced from another desk can be).
  stored = await importAll(
    t,
    Array.from({ length: RUN }, (_, i) => invoice({ code: `RUN-${i}`, supplier: 'Same Supplier', customer: 'Same Customer', issue_date: '2025-03-01', due_date: '2025-04-01', quantity: 2 })),
  );
  others = await importAll(t, [
    invoice({ code: 'LOW-1', supplier: 'Aardvark', customer: 'Aardvark', issue_date: '2025-01-01', due_date: '2025-01-15', quantity: 1 }),
    invoice({ code: 'HIGH-1', supplier: 'Zebra', customer: 'Zebra', issue_date: '2025-06-01', due_date: '2025-07-01', quantity: 9 }),
    invoice({ code: 'NONE-1', supplier: 'Middle', customer: 'Middle', issue_date: '2025-03-02', quantity: 3 }),
  ]);
  const { db } = t.service;
  await db.tx(async () => {
    for (const [i, id] of stored.entries()) {
      await db.sqlRun('UPDATE entries SET created_at = ? WHERE id = ?', [new Date(Date.UTC(2025, 0, 1, 0, 0, RUN - i)).toISOString(), id]);
    }
  }, { origin: LOCAL });
});
afterAll(() => t.close());

const run = (list: any[]) => list.map((e) => e.id).filter((id: string) => stored.includes(id));

describe('ties in the sorted entry list', () => {
  for (const sort of Object.keys(SEQ_TIED_SORTS).filter((s) => s !== 'number')) {
    for (const ascending of [true, false]) {
      it(`by ${sort} ${ascending ? 'ascending' : 'descending'}: a run of equal values in stored order, paged whole`, async () => {
        const list = await allPages(t, `sort=${sort}&ascending=${ascending}`, 10);
        expect(list.map((e) => e.id).sort()).toEqual([...stored, ...others].sort());
        expect(run(list)).toEqual(ascending ? stored : [...stored].reverse());
      });
    }
  }

  it('by issue date: a run of equal values by created_at', async () => {
    const list = await allPages(t, 'sort=issue_date&ascending=true', 10);
    expect(run(list)).toEqual([...stored].reverse());
  });

  it('a cursor from inside a run starts right after its entry', async () => {
    const first = await t.call('GET', '/silo/v1/entries?sort=total&ascending=true&limit=10');
    expect(first.status).toBe(200);
    // LOW-1 first, then the first nine of the run.
    expect(first.body.list.map((e: any) => e.id)).toEqual([others[0], ...stored.slice(0, 9)]);
    const next = await t.call('GET', `/silo/v1/entries?sort=total&ascending=true&limit=10&cursor=${encodeURIComponent(first.body.next_cursor)}`);
    expect(next.body.list.map((e: any) => e.id)).toEqual(stored.slice(9, 19));
  });

  it('in created order: entries made at one instant follow as stored, paged whole both ways', async () => {
    const { db } = t.service;
    // Stored in the reverse order of their ids, so an order tied by id would read them backwards.
    const instant = Array.from({ length: 25 }, () => uuidv7()).sort().reverse();
    const res = await t.call('POST', '/silo/v1/import', {
      entries: instant.map((id, i) => ({ id, data: invoice({ code: `SAME-${i}`, supplier: 'Instant', customer: 'Instant', issue_date: '2019-12-31', quantity: 1 }) })),
    });
    expect(res.body.failed, JSON.stringify(res.body.results[0])).toBe(0);
    // Older than every other entry, and all at the same millisecond (as a pull of another desk's import can bring them).
    await db.tx(() => db.sqlRun(`UPDATE entries SET created_at = '2020-01-01T00:00:00.000Z' WHERE id IN (${instant.map(() => '?').join(', ')})`, instant), { origin: LOCAL });
    const ascending = (await allPages(t, 'ascending=true', 10)).map((e) => e.id);
    expect(ascending.slice(0, 25)).toEqual(instant);
    const descending = (await allPages(t, '', 10)).map((e) => e.id);
    expect(descending.slice(-25)).toEqual([...instant].reverse());
    expect(new Set(descending).size).toBe(descending.length);
    // A state's walk in created order too (every entry here is a draft).
    expect((await allPages(t, 'state=draft&ascending=true', 10)).map((e) => e.id).slice(0, 25)).toEqual(instant);
  });

  it('keeps the created order’s indexes without the entry id', async () => {
    const { db } = t.service;
    for (const [index, lead] of Object.entries(CREATED_ORDER_INDEXES)) {
      const leading = lead ? [lead.replace(', ', '')] : [];
      if (db.dialect === 'sqlite') {
        const columns = (db.sqlite!.prepare(`PRAGMA index_info(${index})`).all() as Array<{ name: string }>).map((c) => c.name);
        expect(columns).toEqual(['company_id', ...leading, 'created_at']);
      } else {
        const found = await db.sqlFirst<{ indexdef: string }>(`SELECT indexdef FROM pg_indexes WHERE tablename = 'entries' AND indexname = ?`, [index]);
        expect(found?.indexdef).toMatch(new RegExp(`\\(${['company_id', ...leading, 'created_at', 'seq'].join(', ')}\\)$`));
      }
    }
  });

  it('keeps the sort indexes of those sorts without created_at and id', async () => {
    const { db } = t.service;
    for (const [sort, column] of Object.entries(SEQ_TIED_SORTS)) {
      if (db.dialect === 'sqlite') {
        const columns = (db.sqlite!.prepare(`PRAGMA index_info(entries_sort_${sort})`).all() as Array<{ name: string }>).map((c) => c.name);
        // SQLite ends every index entry with the rowid: seq.
        expect(columns).toEqual(['company_id', column]);
      } else {
        const found = await db.sqlFirst<{ indexdef: string }>(`SELECT indexdef FROM pg_indexes WHERE tablename = 'entries' AND indexname = ?`, [`entries_sort_${sort}`]);
        expect(found?.indexdef).toMatch(new RegExp(`\\(company_id, ${column}, seq\\)$`));
      }
    }
  });
});
