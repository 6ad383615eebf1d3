import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureDefaultCompany } from '../../src-main/core/access/bootstrap.ts';
import type { CompanyKey } from '../../src-main/core/access/company-key.ts';
import { snippetFromStored, storedSnippetText } from '../../src-main/core/silo/stored-snippet.ts';
import { keptSums, scannedSums, sumEntries } from '../../src-main/core/silo/sums.ts';
import { importAll, invoice } from './desk-list-helpers.ts';
import { startTestServer, type TestServer } from './harness.ts';

/**
 * The desk's sums from the kept groups (entry-sums.ts) are exactly the sums read from
 * every matching entry: for any folder, state and dates, after entries move, change
 * their document, go to the trash and come back, and when an amount has more decimals
 * than the groups hold (then the entries are read).
 */
let t: TestServer;
let ctx: { service: TestServer['service']; caller: { companyKey: CompanyKey; companyId: string; kind: 'owner' } };
let ids: string[];

beforeAll(async () => {
  t = await startTestServer({ autoSync: false, runJobs: false });
  const company = await ensureDefaultCompany(t.service.db);
  ctx = { service: t.service, caller: { companyKey: company.key, companyId: company.id, kind: 'owner' } };
  const docs = Array.from({ length: 48 }, (_, i) =>
    invoice({
      code: `S-${i + 1}`,
      // January to April, some on the first or the last day of a month, a few with none.
      issue_date: i % 11 === 0 ? undefined : `2025-0${1 + (i % 4)}-${String(i % 5 === 4 ? [31, 28, 31, 30][i % 4] : [1, 9, 15, 28][i % 5]).padStart(2, '0')}`,
      type: i % 7 === 3 ? 'credit-note' : 'standard',
      quantity: 1 + (i % 5),
      price: ['10.00', '3.33', '0.05', '1234.5', '7'][i % 5],
    }),
  );
  ids = await importAll(t, docs);
  // An entry without a document's amounts: counted, in no currency.
  const scan = await t.call('POST', '/silo/v1/entries', { data: { $schema: 'https://silodesk.app/draft-0/scan', name: 'x.pdf', mime: 'application/pdf', size: 1, sha256: 'b'.repeat(64) } });
  expect(scan.status).toBe(200);
  for (const [i, id] of ids.entries()) {
    const body = { ...(i % 3 === 0 ? { folder: 'q1' } : {}), ...(i % 4 === 0 ? { state: 'paid' } : {}) };
    if (Object.keys(body).length > 0) expect((await t.call('PATCH', `/silo/v1/entries/${id}`, body)).status).toBe(200);
  }
  // A document changed: another date and amount, so the entry moves between months and its sums change.
  const changed = await t.call('PATCH', `/silo/v1/entries/${ids[5]}`, { data: invoice({ code: 'S-6', issue_date: '2025-04-30', quantity: 9, price: '11.11' }) });
  expect(changed.status, JSON.stringify(changed.body)).toBe(200);
  expect((await t.call('DELETE', `/silo/v1/entries/${ids[7]}`)).status).toBe(200);
  expect((await t.call('DELETE', `/silo/v1/entries/${ids[8]}`)).status).toBe(200);
  expect((await t.call('POST', `/silo/v1/entries/${ids[8]}/restore`)).status).toBe(200);
}, 60_000);
/** The snippet an entry's row stores, read back. */
async function storedSnippet(id: string): Promise<Record<string, string>> {
  return snippetFromStored((await t.service.db.sqlFirst<{ snippet: string }>('SELECT snippet FROM entries WHERE id = ?', [id]))!.snippet);
}

afterAll(() => t.close());

const filters = [
  {},
  { folder: 'q1' },
  { state: 'paid' },
  { folder: 'invoices', state: 'paid' },
  { date_from: '2025-02-01' },
  { date_from: '2025-02-09' },
  { date_to: '2025-03-31' },
  { date_to: '2025-03-15' },
  { date_from: '2025-02-01', date_to: '2025-03-31' },
  { date_from: '2025-02-09', date_to: '2025-02-28' },
  { date_from: '2025-02-09', date_to: '2025-02-15' },
  { date_from: '2025-01-15', date_to: '2025-04-09', folder: 'q1' },
  { date_from: '2025-03-01', date_to: '2025-03-31', state: 'paid' },
  { date_from: '2025-04-01', date_to: '2025-01-31' },
  { date_from: '2030-01-01' },
];

describe('the kept sums', () => {
  it('add up to the sums read from every matching entry, for any folder, state and dates', async () => {
    const all = await scannedSums(ctx, {});
    // 48 invoices less the one in the trash, in euros; and the scan, in no currency.
    expect(all.count).toBe(48);
    expect(all.list).toMatchObject([{ currency: 'EUR', count: 47 }]);
    for (const f of filters) {
      const kept = await keptSums(ctx, f);
      expect(kept, JSON.stringify(f)).toBeDefined();
      expect(kept, JSON.stringify(f)).toEqual(await scannedSums(ctx, f));
    }
    // Some of them are not empty, and differ: the comparisons above compared something.
    expect(new Set(await Promise.all(filters.map(async (f) => JSON.stringify(await keptSums(ctx, f))))).size).toBeGreaterThan(10);
  });

  it('write a sum at the most decimals its entries state, and at fewer again once that entry is gone', async () => {
    const { db } = t.service;
    // Three decimals, within what the groups hold (a snippet and sort column as a document in such a currency gives them).
    // Stored as this build stores it (packed, on SQLite).
    const snippet = storedSnippetText({ ...(await storedSnippet(ids[12])), net: '5.125' }, db.dialect);
    await db.tx(async () => db.sqlRun('UPDATE entries SET snippet = ?, net_e4 = 51250 WHERE id = ?', [snippet, ids[12]]), { origin: 'local' });
    const three = await keptSums(ctx, {});
    expect(three).toEqual(await scannedSums(ctx, {}));
    expect(three!.list[0].net).toMatch(/^-?\d+\.\d{3}$/);
    expect((await t.call('DELETE', `/silo/v1/entries/${ids[12]}`)).status).toBe(200);
    const two = await keptSums(ctx, {});
    expect(two).toEqual(await scannedSums(ctx, {}));
    expect(two!.list[0].net).toMatch(/^-?\d+\.\d{2}$/);
    // Restored, its snippet is made again from its document: the sums follow that too.
    expect((await t.call('POST', `/silo/v1/entries/${ids[12]}/restore`)).status).toBe(200);
    expect(await keptSums(ctx, {})).toEqual(await scannedSums(ctx, {}));
  });

  it('hold an amount exactly when the scan would read it as the same number, and leave any other to the scan', async () => {
    const { db } = t.service;
    const cases: Array<[unknown, boolean]> = [
      ['12', true], ['-3.5', true], ['+7.25', true], ['0.0001', true], ['12345678901234', true],
      ['.5', false], ['5.', false], ['1 2', false], [' 4.00', false], ['1e3', false], ['1.2.3', false], ['+-5', false], ['123456789012345', false], [12, false], [null, true],
    ];
    const original = (await db.sqlFirst<{ snippet: string }>('SELECT snippet FROM entries WHERE id = ?', [ids[20]]))!.snippet;
    const members = snippetFromStored(original);
    try {
      for (const [value, exact] of cases) {
        // As an object (as every row was stored before snippets were packed), and as this build stores a string.
        const forms = [JSON.stringify({ ...members, net: value })];
        if (typeof value === 'string') forms.push(storedSnippetText({ ...members, net: value }, db.dialect));
        for (const snippet of forms) {
          await db.tx(async () => db.sqlRun('UPDATE entries SET snippet = ? WHERE id = ?', [snippet, ids[20]]), { origin: 'local' });
          expect(await keptSums(ctx, {}) !== undefined, snippet).toBe(exact);
          expect(await sumEntries(ctx, {}), snippet).toEqual(await scannedSums(ctx, {}));
        }
      }
    } finally {
      await db.tx(async () => db.sqlRun('UPDATE entries SET snippet = ? WHERE id = ?', [original, ids[20]]), { origin: 'local' });
    }
  });

  it('leave an amount with more decimals than they hold to a reading of the entries', async () => {
    const { db } = t.service;
    // A snippet as an older build could have written it: five decimals (the sort column rounds it).
    const snippet = JSON.stringify({ ...(await storedSnippet(ids[10])), net: '100.12345' });
    await db.tx(async () => db.sqlRun('UPDATE entries SET snippet = ? WHERE id = ?', [snippet, ids[10]]), { origin: 'local' });
    expect(await keptSums(ctx, {})).toBeUndefined();
    const sums = await sumEntries(ctx, {});
    expect(sums).toEqual(await scannedSums(ctx, {}));
    expect(sums.list[0].net).toMatch(/\.\d{5}$/);
    // Months without it are still added from the groups.
    const month = (await db.sqlFirst<{ issue_date: string | null }>('SELECT issue_date FROM entries WHERE id = ?', [ids[10]]))!.issue_date;
    const other = month?.startsWith('2025-01') ? { date_from: '2025-02-01' } : { date_to: '2025-01-31' };
    expect(await keptSums(ctx, other)).toEqual(await scannedSums(ctx, other));
  });
});
