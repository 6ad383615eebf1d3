import { describe, expect, it } from 'vitest';
import type { Sqlite } from '../../src-main/core/db/connection.ts';
import { withFreshService } from '../support/fresh-service.ts';
import { migrations } from '../../src-main/core/db/migrations.ts';
import { createEntry } from '../../src-main/core/silo/entries.ts';
import { patchEntry } from '../../src-main/core/silo/patch.ts';
import { snippetFromStored } from '../../src-main/core/silo/stored-snippet.ts';
import { keptSums, scannedSums } from '../../src-main/core/silo/sums.ts';
import { trashEntry } from '../../src-main/core/silo/trash.ts';
import { invoice } from './desk-list-helpers.ts';

/**
 * EXPLAIN (or its query plan) of the SELECT in trigger `name`'s first statement, as a statement of
 * its own: NEW's and OLD's columns as parameters, bound to NULL.
 */
function explainTrigger(sqlite: Sqlite, name: string, how: 'EXPLAIN' | 'EXPLAIN QUERY PLAN'): any[] {
  const trigger = (sqlite.prepare('SELECT sql FROM sqlite_master WHERE name = ?').get(name) as { sql: string }).sql;
  const insert = trigger.slice(trigger.indexOf(' BEGIN') + 6).split(/;\s*\n/)[0];
  const select = insert.slice(insert.indexOf('SELECT'), insert.indexOf(' WHERE true')).replace(/(OLD|NEW)\.(\w+)/g, '@$1_$2');
  const params = Object.fromEntries([...new Set(select.match(/@\w+/g))].map((p) => [p.slice(1), null]));
  return sqlite.prepare(`${how} ${select}`).all(params);
}

/** The GLOBs written in that SELECT's program: each is an amount checked, and a copied step shows as more. */
const triggerGlobs = (sqlite: Sqlite, name: string): number =>
  explainTrigger(sqlite, name, 'EXPLAIN').filter((op: { opcode: string; p4: string | null }) => op.opcode.startsWith('Function') && op.p4?.startsWith('glob(')).length;

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
      // What the update trigger adds for OLD
      const globs = (): number => triggerGlobs(sqlite, 'entries_sums_update');
      // Net, tax and total are each checked by 7 GLOBs, the currency by 1: 22 when no step is copied into the next.
      expect(globs()).toBe(22);
      // The triggers as 0029 made them: each step copied into the next where it is named (and no move, which 0040 adds).
      sqlite.exec('DROP TRIGGER entries_sums_move');
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

  it('0040 moves an entry between groups with its amounts worked out once, and the sums still follow every write', async () => {
    await withFreshService(async (ctx) => {
      const sqlite = ctx.service.db.sqlite!;
      /** GLOBs in the program of trigger `name`'s first statement's SELECT, NEW's and OLD's columns as parameters. */
      const globs = (name: string): number => triggerGlobs(sqlite, name);
      // Both rows of a move (out of the old group, into the new) come from one working out: written once
      // (22 GLOBs, as for one side), and run once, as the outer loop around the two sides.
      expect(globs('entries_sums_move')).toBe(22);
      const outer = explainTrigger(sqlite, 'entries_sums_move', 'EXPLAIN QUERY PLAN').filter((r: { parent: number; detail: string }) => r.parent === 0 && r.detail.startsWith('SCAN'));
      expect(outer.map((r: { detail: string }) => r.detail)).toEqual(['SCAN d', 'SCAN k']);
      expect(globs('entries_sums_update')).toBe(22);
      const groups = () => sqlite.prepare('SELECT count(*) AS n FROM entry_sums').get() as { n: number };
      // The triggers as 0039 left them: an entry stored then, moved after 0040.
      sqlite.exec('DROP TRIGGER entries_sums_move');
      await migrations['0039_entry_sums_fenced'].up(ctx.service.db.q);
      const a = await createEntry(ctx, undefined, { data: invoice({ code: 'G-1', issue_date: '2025-05-02', quantity: 3 }) });
      await migrations['0040_entry_sums_moving'].up(ctx.service.db.q);
      expect(groups().n).toBe(1);
      expect(globs('entries_sums_move')).toBe(22);

      const b = await createEntry(ctx, undefined, { data: invoice({ code: 'G-2', issue_date: '2025-05-09', quantity: 2, type: 'credit-note' }), folder: 'b' });
      const c = await createEntry(ctx, undefined, { data: invoice({ code: 'G-3', issue_date: '2025-06-01', quantity: 7 }) });
      const check = async (what: string) => {
        for (const f of [{}, { folder: 'a' }, { folder: 'b' }, { state: 'registered' }, { date_from: '2025-05-01', date_to: '2025-05-31' }]) {
          expect(await keptSums(ctx, f), `${what} ${JSON.stringify(f)}`).toEqual(await scannedSums(ctx, f));
        }
      };
      // a move: state, then folder, then both
      await patchEntry(ctx, a.id, { content_type: 'application/json', state: 'registered' });
      await check('state');
      await patchEntry(ctx, b.id, { content_type: 'application/json', folder: 'a' });
      await check('folder');
      await patchEntry(ctx, c.id, { content_type: 'application/json', folder: 'b', state: 'registered' });
      await check('folder and state');
      // not a move: the amounts change with the state (the update trigger takes it)
      await patchEntry(ctx, a.id, { content_type: 'application/json', state: 'sent', data: invoice({ code: 'G-1', issue_date: '2025-05-02', quantity: 11 }) });
      await check('state and document');
      // nor is going to the trash, or a move of an entry in it
      await trashEntry(ctx, b.id);
      await check('trash');
      await ctx.service.db.tx(() => ctx.service.db.sqlRun('UPDATE entries SET state = ? WHERE id = ?', ['void', b.id]), { origin: 'local' });
      await check('state in the trash');
      // the group a move empties is gone
      expect((sqlite.prepare('SELECT count(*) AS n FROM entry_sums WHERE entries = 0').get() as { n: number }).n).toBe(0);
      expect((await keptSums(ctx, {}))!.count).toBe(2);
    });
  });
});
