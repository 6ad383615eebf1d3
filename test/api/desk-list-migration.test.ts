import { describe, expect, it } from 'vitest';
import { withFreshService } from '../support/fresh-service.ts';
import { migrations } from '../../src-main/core/db/migrations.ts';
import { createEntry } from '../../src-main/core/silo/entries.ts';
import { listEntries } from '../../src-main/core/silo/list.ts';
import { invoice } from './desk-list-helpers.ts';

describe('migration 0009_desk_list', () => {
  it('back-fills the sort columns and snippets of entries stored before it, so they sort at once', async () => {
    await withFreshService(async (ctx) => {
      const { service } = ctx;
      const big = await createEntry(ctx, undefined, { data: invoice({ code: 'OLD-2', quantity: 50, due_date: '2025-04-01' }) });
      const credit = await createEntry(ctx, undefined, { data: invoice({ code: 'OLD-1', quantity: 2, type: 'credit-note' }) });
      const small = await createEntry(ctx, undefined, { data: invoice({ code: 'OLD-10', quantity: 1 }) });

      // The database as it was before 0009: no sort columns, views or indexes, snippets without net/tax/due_date
      // (and none of the later triggers that read those columns: the kept sums of 0019).
      const sqlite = service.db.sqlite!;
      for (const name of ['insert', 'delete', 'update']) sqlite.exec(`DROP TRIGGER entries_sums_${name}`);
      for (const index of ['issue_date', 'due_date', 'number', 'supplier', 'customer', 'net', 'tax', 'total', 'state']) sqlite.exec(`DROP INDEX entries_sort_${index}`);
      sqlite.exec('DROP TABLE entry_views');
      for (const column of ['due_date', 'number_key', 'supplier_key', 'customer_key', 'currency', 'net_e4', 'tax_e4', 'total_e4']) sqlite.exec(`ALTER TABLE entries DROP COLUMN ${column}`);
      sqlite.exec(`CREATE INDEX entries_company_issue_date ON entries(company_id, issue_date) WHERE issue_date IS NOT NULL`);
      sqlite.exec(`UPDATE entries SET snippet = json_remove(snippet, '$.net', '$.tax', '$.due_date')`);
      await service.db.tx(async () => {
        sqlite.exec(`UPDATE entries SET data = 'not json' WHERE id = '${small.id}'`);
      }, { origin: 'local' });

      // Later migrations stay applied (Kysely refuses to run one out of order), so 0009 runs on its own.
      await migrations['0009_desk_list'].up(service.db.q);

      const row = (id: string) => sqlite.prepare('SELECT snippet, due_date, number_key, net_e4, total_e4, currency FROM entries WHERE id = ?').get(id) as any;
      expect(JSON.parse(row(big.id).snippet)).toMatchObject({ net: '500.00', tax: '105.00', due_date: '2025-04-01' });
      expect(row(big.id)).toMatchObject({ due_date: '2025-04-01', net_e4: 5_000_000, total_e4: 6_050_000, currency: 'EUR' });
      expect(row(credit.id)).toMatchObject({ net_e4: -200_000, total_e4: -242_000 });
      expect(row(big.id).number_key).toBe('old-012');
      // A row whose data does not parse is left as it was, and sorts with those without a value.
      expect(row(small.id)).toMatchObject({ net_e4: null, number_key: null });

      const byTotal = await listEntries(ctx, { sort: 'total', ascending: true, limit: 10 });
      expect(byTotal.list.map((e) => e.id)).toEqual([credit.id, big.id, small.id]);
      expect(sqlite.prepare(`SELECT name FROM sqlite_master WHERE name = 'entries_company_issue_date'`).get()).toBeUndefined();
    });
  });
});
