import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness.ts';
import { allPages, importAll, invoice, signed, type Variant } from './desk-list-helpers.ts';

/** Sorting, paging and sums of the entry list. (That SQLite walks one index for every sort: perf-plans.test.ts.) */
let t: TestServer;
let ids: string[];

// Numbers that sort naturally (2 before 10), names with case and accents, missing dates,
// credit notes, equal amounts (ties go as stored, sort-ties.ts), odd cents.
const variants: Variant[] = [
  { code: 'INV-10', supplier: 'Zeta Trading', issue_date: '2025-01-10', due_date: '2025-02-10', quantity: 3 },
  { code: 'INV-2', supplier: 'alpha supplies', issue_date: '2025-01-02', quantity: 12 },
  { code: 'INV-1', supplier: 'Élan Studio', issue_date: '2025-01-01', due_date: '2025-01-31', quantity: 1 },
  { code: 'CN-1', supplier: 'Beta BV', issue_date: '2025-01-05', type: 'credit-note', quantity: 40 },
  { code: 'INV-3', supplier: 'delta & co', issue_date: '2025-01-03', due_date: '2025-03-01', quantity: 3 },
  { code: 'INV-20', series: 'B', supplier: 'Foxtrot', issue_date: '2025-01-20', quantity: 7, price: '3.33' },
  { code: 'INV-4', supplier: 'Golf', issue_date: '2025-01-04', due_date: '2025-01-15', quantity: 3 },
  { code: 'CN-2', supplier: 'Hotel', issue_date: '2025-01-06', type: 'credit-note', quantity: 1, price: '0.05' },
  ...Array.from({ length: 12 }, (_, i): Variant => ({ code: `BULK-${i + 1}`, supplier: `Supplier ${String.fromCharCode(73 + i)}`, issue_date: `2024-12-${String(10 + i).padStart(2, '0')}`, quantity: (i % 4) + 1 })),
];

beforeAll(async () => {
  t = await startTestServer();
  ids = await importAll(t, variants.map(invoice));
  // A scan placeholder has no number, parties or amounts: it sorts after the others either way.
  const scan = await t.call('POST', '/silo/v1/entries', { data: { $schema: 'https://silodesk.app/draft-0/scan', name: 'x.pdf', mime: 'application/pdf', size: 1, sha256: 'a'.repeat(64) }, state: 'draft' });
  expect(scan.status).toBe(200);
  ids.push(scan.body.id);
  await t.call('PATCH', `/silo/v1/entries/${ids[0]}`, { state: 'paid' });
  await t.call('PATCH', `/silo/v1/entries/${ids[1]}`, { state: 'registered' });
});
afterAll(() => t.close());

const byNumber = (list: any[]) => list.map((e) => (e.snippet.series ? `${e.snippet.series}-${e.snippet.code}` : (e.snippet.code ?? '—')));

/** Values in list order must never go back; entries without one come after all that have one. */
function expectOrdered(list: any[], value: (e: any) => string | number | null, ascending: boolean) {
  const values = list.map(value);
  const firstMissing = values.findIndex((v) => v === null);
  if (firstMissing >= 0) expect(values.slice(firstMissing).every((v) => v === null), `no value after ${firstMissing}: ${values.join(', ')}`).toBe(true);
  const present = values.filter((v) => v !== null) as Array<string | number>;
  for (let i = 1; i < present.length; i++) {
    const [a, b] = [present[i - 1], present[i]];
    expect(ascending ? a <= b : a >= b, `${a} then ${b} in ${present.join(', ')}`).toBe(true);
  }
}

describe('sorting the entry list', () => {
  const fold = (s: string | undefined) => (s ? s.normalize('NFKD').replace(/\p{M}+/gu, '').toLowerCase() : null);
  const cases: Array<[string, (e: any) => string | number | null]> = [
    ['issue_date', (e) => e.snippet.issue_date ?? null],
    ['due_date', (e) => e.snippet.due_date ?? null],
    ['supplier', (e) => fold(e.snippet.supplier?.name)],
    ['net', (e) => signed(e, 'net')],
    ['tax', (e) => signed(e, 'tax')],
    ['total', (e) => signed(e, 'total')],
    ['state', (e) => e.state],
  ];
  for (const [sort, value] of cases) {
    for (const ascending of [true, false]) {
      it(`by ${sort} ${ascending ? 'ascending' : 'descending'}: every entry once, in order, page by page`, async () => {
        const list = await allPages(t, `sort=${sort}&ascending=${ascending}`, 10);
        expect(list.map((e) => e.id).sort()).toEqual([...ids].sort());
        expectOrdered(list, value, ascending);
      });
    }
  }

  it('orders numbers naturally (INV-2 before INV-10) and names without regard to case or accents', async () => {
    const numbers = byNumber(await allPages(t, 'sort=number&ascending=true'));
    expect(numbers.filter((n) => n.startsWith('INV-'))).toEqual(['INV-1', 'INV-2', 'INV-3', 'INV-4', 'INV-10']);
    expect(numbers.indexOf('B-INV-20')).toBeLessThan(numbers.indexOf('BULK-1'));
    expect(numbers.indexOf('BULK-2')).toBeLessThan(numbers.indexOf('BULK-10'));
    expect(numbers.at(-1)).toBe('—');

    const suppliers = (await allPages(t, 'sort=supplier&ascending=true')).map((e) => e.snippet.supplier?.name).filter(Boolean);
    expect(suppliers.slice(0, 5)).toEqual(['alpha supplies', 'Beta BV', 'delta & co', 'Élan Studio', 'Foxtrot']);
  });

  it('counts a credit note negative: it sorts below every invoice by total', async () => {
    const list = await allPages(t, 'sort=total&ascending=true');
    expect(byNumber(list.slice(0, 2))).toEqual(['CN-1', 'CN-2']);
    expect(list[0].snippet.payable).toBe('484.00'); // the document states it positive; the order reads it as -484.00
  });

  it('breaks ties in the order entries were stored, and pages never skip or repeat entries added meanwhile', async () => {
    const first = await t.call('GET', '/silo/v1/entries?sort=net&ascending=true&limit=10');
    // An entry added between two pages either shows on a later page or not at all; none repeats.
    const [added] = await importAll(t, [invoice({ code: 'LATE-1', quantity: 2 })]);
    const rest = await allPages(t, 'sort=net&ascending=true', 10, first.body.next_cursor);
    const seen = [...first.body.list, ...rest].map((e: any) => e.id);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.filter((id: string) => id !== added).sort()).toEqual([...ids].sort());
    const tens = [...first.body.list, ...rest].filter((e: any) => e.snippet.total === '30.00').map((e: any) => e.id);
    expect(tens.length).toBeGreaterThan(2);
    expect(tens).toEqual(ids.filter((id) => tens.includes(id)));
    ids.push(added);
  });

  it('keeps filters while sorting, and refuses a cursor made for another order or filter', async () => {
    const paid = await t.call('GET', '/silo/v1/entries?sort=total&state=paid');
    expect(paid.body.list.map((e: any) => e.id)).toEqual([ids[0]]);
    const dated = await allPages(t, 'sort=due_date&date_from=2025-01-01&date_to=2025-01-31', 10);
    expect(dated.every((e) => e.snippet.issue_date >= '2025-01-01' && e.snippet.issue_date <= '2025-01-31')).toBe(true);

    const page = await t.call('GET', '/silo/v1/entries?sort=total&limit=10');
    expect(page.body.next_cursor).toBeTruthy();
    const cursor = encodeURIComponent(page.body.next_cursor);
    for (const other of ['sort=net', 'sort=total&ascending=true', 'sort=total&state=paid', 'sort=created_at']) {
      const res = await t.call('GET', `/silo/v1/entries?${other}&limit=10&cursor=${cursor}`);
      expect(res.status, other).toBe(400);
    }
    expect((await t.call('GET', '/silo/v1/entries?sort=price')).status).toBe(400);
  });
});

describe('sums of a selection', () => {
  it('adds net, tax and total per currency exactly, a credit note negative, with the list filters', async () => {
    const all = await allPages(t, 'sort=created_at', 100);
    const eur = all.filter((e) => e.snippet.currency === 'EUR');
    const cents = (field: string) => eur.reduce((s, e) => s + Math.round((signed(e, field) ?? 0) * 100), 0);
    const res = await t.call('GET', '/silo/v1/entry-sums');
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(all.length);
    expect(res.body.list).toEqual([
      { currency: 'EUR', count: eur.length, net: (cents('net') / 100).toFixed(2), tax: (cents('tax') / 100).toFixed(2), total: (cents('total') / 100).toFixed(2) },
    ]);

    const credit = await t.call('GET', '/silo/v1/entry-sums?q=CN');
    expect(credit.body.list[0]).toMatchObject({ currency: 'EUR', count: 2, net: '-400.05', tax: '-84.01', total: '-484.06' });
    const paid = await t.call('GET', '/silo/v1/entry-sums?state=paid');
    expect(paid.body).toEqual({ count: 1, list: [{ currency: 'EUR', count: 1, net: '30.00', tax: '6.30', total: '36.30' }] });
    expect((await t.call('GET', '/silo/v1/entry-sums?q=%22%22')).body).toEqual({ count: 0, list: [] });
  });

  it('never mixes companies', async () => {
    const other = await t.call('POST', '/access/v1/companies', { name: 'Other books' });
    const res = await t.call('GET', '/silo/v1/entry-sums', undefined, { authorization: `Bearer ${other.body.owner_token}` });
    expect(res.body).toEqual({ count: 0, list: [] });
  });
});
