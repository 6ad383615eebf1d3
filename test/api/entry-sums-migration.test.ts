import { describe, expect, it } from 'vitest';
import { withFreshService } from '../support/fresh-service.ts';
import { migrations } from '../../src-main/core/db/migrations.ts';
import { createEntry } from '../../src-main/core/silo/entries.ts';
import { patchEntry } from '../../src-main/core/silo/patch.ts';
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
      await migrations['0039_entry_sums_fenced'].up(service.db.q);

      for (const f of [{}, { folder: 'a' }, { date_from: '2025-01-01', date_to: '2025-01-31' }, { date_from: '2025-01-10' }]) {
        const kept = await keptSums(ctx, f);
        expect(kept, JSON.stringify(f)).toEqual(await scannedSums(ctx, f));
      }
      expect((await keptSums(ctx, {}))!.count).toBe(4);
    });
  });

  it('0039 works out each step of an entry\'s amounts once, and the sums still follow every write', async () => {
    await withFreshService(async (ctx) => {
      const sqlite = ctx.service.db.sqlite!;
      // What the update trigger adds for OLD, as a statement of its own: OLD's columns as parameters.
      const amountsOfOld = (): string => {
        const trigger = (sqlite.prepare(`SELECT sql FROM sqlite_master WHERE name = 'entries_sums_update'`).get() as { sql: string }).sql;
        const insert = trigger.slice(trigger.indexOf(' BEGIN') + 6).split(/;\s*\n/)[0];
        return insert.slice(insert.indexOf('SELECT'), insert.indexOf(' WHERE true')).replace(/OLD\.(\w+)/g, '@$1');
      };
      const globs = (): number => {
        const sql = amountsOfOld();
        const params = Object.fromEntries([...new Set(sql.match(/@\w+/g))].map((p) => [p.slice(1), null]));
        const program = sqlite.prepare(`EXPLAIN ${sql}`).all(params) as Array<{ opcode: string; p4: string | null }>;
        return program.filter((op) => op.opcode.startsWith('Function') && op.p4?.startsWith('glob(')).length;
      };
      // Net, tax and total are each checked by 7 GLOBs, the currency by 1: 22 when no step is copied into the next.
      expect(globs()).toBe(22);
      // The triggers as 0029 made them: each step copied into the next where it is named.
      await migrations['0029_packed_snippets'].up(ctx.service.db.q);
      expect(globs()).toBeGreaterThan(40);
      const early = await createEntry(ctx, undefined, { data: invoice({ code: 'F-1', issue_date: '2025-03-02', quantity: 3 }) });
      await migrations['0039_entry_sums_fenced'].up(ctx.service.db.q);
      expect(globs()).toBe(22);

      const later = await createEntry(ctx, undefined, { data: invoice({ code: 'F-2', issue_date: '2025-03-09', quantity: 2, type: 'credit-note' }), folder: 'b' });
      await createEntry(ctx, undefined, { data: invoice({ code: 'F-3', issue_date: '2025-04-01', quantity: 7 }) });
      await patchEntry(ctx, early.id, { content_type: 'application/json', state: 'registered' });
      await patchEntry(ctx, later.id, { content_type: 'application/json', folder: 'a' });
      await trashEntry(ctx, early.id);
      for (const f of [{}, { folder: 'a' }, { folder: 'b' }, { date_from: '2025-03-01', date_to: '2025-03-31' }]) {
        expect(await keptSums(ctx, f), JSON.stringify(f)).toEqual(await scannedSums(ctx, f));
      }
      expect((await keptSums(ctx, {}))!.count).toBe(2);
    });
  });
});
