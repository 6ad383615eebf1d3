import type { KyselyPlugin } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { searchIndexByColumn } from '../../src-main/core/silo/search-index-columns.ts';
import { oneLineInvoice } from './gobl-helpers.ts';
import { startTestServer, type TestServer } from './harness.ts';

/** Migration 0027 (SQLite's full-text index, by column): what it finds before, it finds after. */
let t: TestServer;
const ids: Record<string, string> = {};

beforeAll(async () => {
  t = await startTestServer();
  for (const [name, item] of [['a', 'Quillwort consulting'], ['b', 'Marshmallow audit'], ['c', 'Quillwort bookkeeping']] as const) {
    const made = await t.call('POST', '/silo/v1/entries', {
      data: oneLineInvoice(`COLS-${name}`, { lines: [{ quantity: '1', item: { name: item, price: '10.00' }, taxes: [{ cat: 'VAT', rate: 'general' }] }] }),
      tags: [`tag-${name}`],
    });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    ids[name] = made.body.id;
  }
  await t.call('DELETE', `/silo/v1/entries/${ids.c}`);
});
afterAll(() => t.close());

const found = async (q: string) => ((await t.call('GET', `/silo/v1/search?q=${encodeURIComponent(q)}`)).body.list as Array<{ id: string }>).map((e) => e.id).sort();
const QUERIES = ['quillwort', 'quill', 'marshmallow', 'COLS-a', 'tag-b', 'consulting'];

describe('the search index by column', () => {
  it('is how a new database keeps it', () => {
    const made = t.service.db.sqlite!.prepare(`SELECT sql FROM sqlite_master WHERE name = 'entries_fts'`).pluck().get() as string;
    expect(made).toMatch(/detail = column/);
  });

  it('built again from the entries of a database that kept positions, answers every search as before, and holds no trashed entry', async () => {
    const before = Object.fromEntries(await Promise.all(QUERIES.map(async (q) => [q, await found(q)] as const)));
    expect(before.quillwort).toEqual([ids.a]);
    expect(before.marshmallow).toEqual([ids.b]);
    const sqlite = t.service.db.sqlite!;
    // The index as 0011 made it, empty: the migration fills it from the entries alone.
    sqlite.exec(`DROP TABLE entries_fts`);
    sqlite.exec(`CREATE VIRTUAL TABLE entries_fts USING fts5(title, body, company, content = '', contentless_delete = 1, tokenize = 'unicode61 remove_diacritics 2')`);
    expect(await found('quillwort')).toEqual([]);
    // 0027 ran before 0031_company_keys, on entries whose company_id was still the company's public id: it reads them so.
    const publicIdOf = new Map((sqlite.prepare('SELECT id, uuid FROM companies').all() as Array<{ id: string; uuid: string }>).map((c) => [c.id, c.uuid]));
    const asBeforeCompanyKeys: KyselyPlugin = {
      transformQuery: ({ node }) => node,
      transformResult: async ({ result }) => ({
        ...result,
        rows: result.rows.map((r: any) => (typeof r.company_id === 'string' ? { ...r, company_id: publicIdOf.get(r.company_id) } : r)),
      }),
    };
    await t.service.db.tx(() => searchIndexByColumn(t.service.db.q.withPlugin(asBeforeCompanyKeys)), { origin: 'local' });
    expect(sqlite.prepare(`SELECT sql FROM sqlite_master WHERE name = 'entries_fts'`).pluck().get()).toMatch(/detail = column/);
    for (const q of QUERIES) expect(await found(q), q).toEqual(before[q]);
    // Restored from the trash, an entry is found again: its row is written anew.
    expect((await t.call('POST', `/silo/v1/entries/${ids.c}/restore`)).status).toBe(200);
    expect(await found('quillwort')).toEqual([ids.a, ids.c].sort());
  });
});
