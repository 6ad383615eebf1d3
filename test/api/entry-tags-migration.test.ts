import { describe, expect, it } from 'vitest';
import { withFreshService } from '../support/fresh-service.ts';
import { migrations } from '../../src-main/core/db/migrations.ts';
import { createEntry } from '../../src-main/core/silo/entries.ts';
import { patchEntry } from '../../src-main/core/silo/patch.ts';
import { LIVE_ENTRY_COUNT_TRIGGERS } from '../../src-main/core/silo/record-keeping-schema.ts';
import { restoreEntry, trashEntry } from '../../src-main/core/silo/trash.ts';
import { invoice } from './desk-list-helpers.ts';

describe('migration 0018_entry_tags', () => {
  it('fills the tag rows of the live entries stored before it, and its triggers keep them and the counts from then on', async () => {
    await withFreshService(async (ctx) => {
      const { service } = ctx;
      const a = await createEntry(ctx, undefined, { data: invoice({ code: 'T-1' }), tags: ['q1', 'vat'] });
      const b = await createEntry(ctx, undefined, { data: invoice({ code: 'T-2' }), tags: ['vat', 'vat'] });
      const gone = await createEntry(ctx, undefined, { data: invoice({ code: 'T-3' }), tags: ['vat'] });
      await trashEntry(ctx, gone.id);

      // The database as it was before 0018: no tag rows, the triggers of 0013.
      const sqlite = service.db.sqlite!;
      sqlite.exec('DROP TABLE entry_tags');
      for (const name of ['entries_count_insert', 'entries_count_delete', 'entries_count_tags']) sqlite.exec(`DROP TRIGGER ${name}`);
      for (const statement of LIVE_ENTRY_COUNT_TRIGGERS.filter((s) => !s.includes('entries_count_folder'))) sqlite.exec(statement);
      await migrations['0018_entry_tags'].up(service.db.q);

      const seqOf = (id: string) => (sqlite.prepare('SELECT seq FROM entries WHERE id = ?').get(id) as { seq: number }).seq;
      const rows = () => sqlite.prepare('SELECT tag, seq FROM entry_tags WHERE company_id = ? ORDER BY tag, seq').all(ctx.caller.companyKey);
      const counts = () => Object.fromEntries((sqlite.prepare('SELECT tag, count FROM entry_tag_counts WHERE company_id = ?').all(ctx.caller.companyKey) as Array<{ tag: string; count: number }>).map((r) => [r.tag, r.count]));
      expect(rows()).toEqual([
        { tag: 'q1', seq: seqOf(a.id) },
        { tag: 'vat', seq: seqOf(a.id) },
        { tag: 'vat', seq: seqOf(b.id) },
      ]);

      // Retagged, trashed, restored, deleted for good: the rows and the counts follow, and a spent count goes.
      await patchEntry(ctx, a.id, { content_type: 'application/json', tags: ['q2'] });
      await trashEntry(ctx, b.id);
      await restoreEntry(ctx, gone.id);
      expect(rows()).toEqual([
        { tag: 'q2', seq: seqOf(a.id) },
        { tag: 'vat', seq: seqOf(gone.id) },
      ]);
      expect(counts()).toEqual({ q2: 1, vat: 1 });
      await service.db.tx(async () => {
        sqlite.prepare('DELETE FROM entries WHERE id = ?').run(gone.id);
      }, { origin: 'local' });
      expect(rows()).toEqual([{ tag: 'q2', seq: seqOf(a.id) }]);
      expect(counts()).toEqual({ q2: 1 });
    });
  });
});
