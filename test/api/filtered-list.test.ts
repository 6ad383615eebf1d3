import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allPages, importAll, invoice } from './desk-list-helpers.ts';
import { startTestServer, type TestServer } from './harness.ts';

/**
 * Filtered pages of the entry list, read either way filter-plan.ts chooses: driven from
 * a filter that keeps few entries (a rare tag, a small folder, a state, a narrow date
 * range), or walked along the order's index when the filters keep many. Either way a
 * filtered list must be exactly the unfiltered list in the same order with the others
 * left out, page by page, and an entry in the trash or retagged must be where its
 * labels now say. (Which way SQLite reads: perf-plans.test.ts and filter-plan.test.ts.)
 */
let t: TestServer;
let all: any[];
let ids: string[];

const ENTRIES = 160;

beforeAll(async () => {
  t = await startTestServer();
  const docs = Array.from({ length: ENTRIES }, (_, i) =>
    invoice({
      code: `F-${i + 1}`,
      supplier: `Supplier ${String.fromCharCode(65 + ((i * 7) % 26))}`,
      issue_date: `2025-${String(1 + (i % 12)).padStart(2, '0')}-${String(1 + ((i * 5) % 28)).padStart(2, '0')}`,
      quantity: 1 + ((i * 13) % 9),
    }),
  );
  ids = await importAll(t, docs);
  const patch = async (id: string, body: { tags?: string[]; folder?: string; state?: string }) => {
    const res = await t.call('PATCH', `/silo/v1/entries/${id}`, body);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  };
  for (const [i, id] of ids.entries()) {
    const tags = [...(i % 13 === 3 ? ['rare'] : []), ...(i % 3 === 0 ? ['common'] : [])];
    if (tags.length > 0) await patch(id, { tags });
    if (i % 11 === 5) await patch(id, { folder: 'small' });
    if (i % 9 === 1) await patch(id, { state: 'queried' });
  }
  // Retagged (the old tag must let go of it), then one tagged entry to the trash and back, one left there.
  await patch(ids[3], { tags: ['common', 'moved'] });
  expect((await t.call('DELETE', `/silo/v1/entries/${ids[42]}`)).status).toBe(200);
  expect((await t.call('POST', `/silo/v1/entries/${ids[42]}/restore`)).status).toBe(200);
  expect((await t.call('DELETE', `/silo/v1/entries/${ids[68]}`)).status).toBe(200);
  all = await allPages(t, 'sort=created_at', 100);
  expect(all).toHaveLength(ENTRIES - 1);
}, 60_000);
afterAll(() => t.close());

type Filter = { tag?: string; folder?: string; state?: string; date_from?: string; date_to?: string };

const keeps = (e: any, f: Filter) =>
  (f.tag === undefined || e.tags.includes(f.tag)) &&
  (f.folder === undefined || e.folder === f.folder) &&
  (f.state === undefined || e.state === f.state) &&
  (f.date_from === undefined || (e.snippet.issue_date ?? '') >= f.date_from) &&
  (f.date_to === undefined || (e.snippet.issue_date !== undefined && e.snippet.issue_date <= f.date_to));

const filters: Filter[] = [
  { tag: 'rare' },
  { tag: 'common' },
  { tag: 'moved' },
  { tag: 'nobody' },
  { folder: 'small' },
  { state: 'queried' },
  { state: 'draft' },
  { date_from: '2025-03-01', date_to: '2025-03-31' },
  { date_from: '2025-02-01' },
  { date_from: '1990-01-01', date_to: '1990-12-31' },
  { tag: 'common', state: 'queried' },
  { tag: 'rare', folder: 'default' },
  { state: 'draft', date_from: '2025-06-01', date_to: '2025-09-30' },
];
const sorts = ['created_at', 'total', 'supplier', 'issue_date', 'state'];

describe('a filtered list', () => {
  it('holds the labels as the entries now carry them (retagged, trashed, restored)', () => {
    const rare = all.filter((e) => e.tags.includes('rare')).map((e) => e.id);
    expect(rare.length).toBeGreaterThan(10);
    expect(all.find((e) => e.id === ids[3])?.tags).toEqual(['common', 'moved']);
    expect(rare).not.toContain(ids[3]);
    expect(rare).toContain(ids[42]);
    expect(all.map((e) => e.id)).not.toContain(ids[68]);
  });

  for (const f of filters) {
    const query = new URLSearchParams(f as Record<string, string>).toString();
    for (const sort of sorts) {
      it(`${query}, sort=${sort}: the unfiltered list's order with the others left out, page by page`, async () => {
        for (const ascending of [false, true]) {
          const order = ascending ? await allPages(t, `sort=${sort}&ascending=true`, 100) : sort === 'created_at' ? all : await allPages(t, `sort=${sort}`, 100);
          const expected = order.filter((e) => keeps(e, f)).map((e) => e.id);
          const got = (await allPages(t, `${query}&sort=${sort}&ascending=${ascending}`, 10)).map((e) => e.id);
          expect(got).toEqual(expected);
        }
      });
    }
  }

});
