import { describe, expect, it } from 'vitest';
import { withFreshService } from '../support/fresh-service.ts';
import { migrations } from '../../src-main/core/db/migrations.ts';
import { createEntry } from '../../src-main/core/silo/entries.ts';
import { snippetFromStored } from '../../src-main/core/silo/stored-snippet.ts';
import { keptSums, scannedSums } from '../../src-main/core/silo/sums.ts';
import { trashEntry } from '../../src-main/core/silo/trash.ts';
import { invoice } from './desk-list-helpers.ts';

describe('migration 0019_entry_sums', () => {
  it('adds up the live entries stored before it into their groups', async () => {
    await withFreshService(async (ctx) => {
      const { service } = ctx;
      for (const [i, date] of ['2025-01-05', '2025-01-31', '2025-02-14', undefined].entries()) {
        await createEntry(ctx, undefined, { data: invoice({ code: `M-${i}`, issue_date: date, quantity: i + 1, type: i === 2 ? 'credit-note' : 'standard' }), folder: i % 2 ? 'b' : 'a' });
      }
      const gone = await createEntry(ctx, undefined, { data: invoice({ code: 'M-9', quantity: 50 }) });
      await trashEntry(ctx, gone.id);

      // The database as it was before 0019.
      const sqlite = service.db.sqlite!;
      for (const name of ['insert', 'delete', 'update']) sqlite.exec(`DROP TRIGGER entries_sums_${name}`);
      sqlite.exec('DROP TABLE entry_sums');
      // Its rows' snippets as objects, the only form then (stored-snippet.ts).
      const rows = sqlite.prepare('SELECT seq, snippet FROM entries').all() as Array<{ seq: number; snippet: string }>;
      expect(rows.every((r) => r.snippet.startsWith('['))).toBe(true);
      for (const r of rows) sqlite.prepare('UPDATE entries SET snippet = ? WHERE seq = ?').run(JSON.stringify(snippetFromStored(r.snippet)), r.seq);
      await migrations['0019_entry_sums'].up(service.db.q);
      await migrations['0029_packed_snippets'].up(service.db.q);

      for (const f of [{}, { folder: 'a' }, { date_from: '2025-01-01', date_to: '2025-01-31' }, { date_from: '2025-01-10' }]) {
        const kept = await keptSums(ctx, f);
        expect(kept, JSON.stringify(f)).toEqual(await scannedSums(ctx, f));
      }
      expect((await keptSums(ctx, {}))!.count).toBe(4);
    });
  });
});
