import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureDefaultCompany } from '../../src-main/core/access/bootstrap.ts';
import type { CompanyKey } from '../../src-main/core/access/company-key.ts';
import { invoiceDoc } from './perf-helpers.ts';
import { startTestServer, type TestServer } from './harness.ts';

/**
 * Folder and tag counts are kept by triggers as entries come, move and change
 * (scale-migration.ts), so listing them never counts a million rows. Whatever writes,
 * they must equal what counting every live entry gives.
 */
let t: TestServer;
/** the default company's key, what its rows are stored under */
let company: CompanyKey;
beforeAll(async () => {
  t = await startTestServer();
  company = (await ensureDefaultCompany(t.service.db)).key;
});
afterAll(() => t.close());

/** The counts as counting every live entry of the company gives them (read as stored, counted here: the same on both engines). */
async function counted() {
  const rows = await t.service.db.sql<{ folder: string; tags: string }>(
    'SELECT folder, tags FROM entries WHERE company_id = ? AND trashed_at IS NULL',
    [company],
  );
  const folders = new Map<string, number>();
  const tags = new Map<string, number>();
  for (const row of rows) {
    folders.set(row.folder, (folders.get(row.folder) ?? 0) + 1);
    // A tag an entry names twice counts it once.
    for (const tag of new Set(JSON.parse(row.tags) as string[])) tags.set(tag, (tags.get(tag) ?? 0) + 1);
  }
  const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return {
    folders: [...folders].sort(([a], [b]) => byName(a, b)).map(([folder, count]) => ({ folder, count })),
    tags: [...tags].sort(([a, m], [b, n]) => n - m || byName(a, b)).map(([tag, count]) => ({ tag, count })),
  };
}

async function kept() {
  return { folders: (await t.call('GET', '/silo/v1/folders')).body.list, tags: (await t.call('GET', '/silo/v1/tags')).body.list };
}

describe('kept counts', () => {
  it('follow creates, imports, moves, relabels and another company’s writes', async () => {
    const ids: string[] = [];
    for (const [i, tags] of [[], ['a'], ['a', 'b']].entries()) {
      const res = await t.call('PUT', `/silo/v1/entries/${uuidv7()}`, { data: invoiceDoc(`CNT-${i}`), tags });
      ids.push(res.body.id);
    }
    await t.call('POST', '/silo/v1/import', {
      entries: [
        { data: invoiceDoc('CNT-10'), folder: 'inbox', tags: ['b', 'c'] },
        { data: invoiceDoc('CNT-11'), folder: 'inbox' },
      ],
    });
    expect(await kept()).toEqual(await counted());
    expect((await kept()).folders).toEqual([
      { folder: 'inbox', count: 2 },
      { folder: 'invoices', count: 3 },
    ]);

    // A move, a relabel, both at once; the last entry of a folder leaves it.
    await t.call('PATCH', `/silo/v1/entries/${ids[0]}`, { folder: 'archive' });
    await t.call('PATCH', `/silo/v1/entries/${ids[1]}`, { tags: ['b', 'z'] });
    await t.call('PATCH', `/silo/v1/entries/${ids[2]}`, { folder: 'archive', tags: [] });
    expect(await kept()).toEqual(await counted());

    // Another company's entries count in its own lists only.
    const other = (await t.call('POST', '/access/v1/companies', { name: 'Other' })).body;
    const otherCall = (method: string, path: string, body?: unknown) =>
      fetch(t.url + path, { method, headers: { authorization: `Bearer ${other.owner_token}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) }).then((r) => r.json());
    await otherCall('PUT', `/silo/v1/entries/${uuidv7()}`, { data: invoiceDoc('CNT-OTHER'), tags: ['a'] });
    expect(await kept()).toEqual(await counted());
    expect((await otherCall('GET', '/silo/v1/folders')).list).toEqual([{ folder: 'invoices', count: 1 }]);
    expect((await otherCall('GET', '/silo/v1/tags')).list).toEqual([{ tag: 'a', count: 1 }]);
  });
});
