import type { Store } from '../db/store.ts';
import type { DerivedDocument } from './document.ts';

/**
 * Writes the mention index and the full-text row of an entry. Called inside the
 * transaction that writes the entry itself, so derived data never drifts.
 */
export function writeDerivedIndexes(
  store: Store,
  entry: { seq: number; id: string; company_id: string; created_at: string; folder: string; tags: string[] },
  doc: DerivedDocument,
): void {
  store.run(store.q.deleteFrom('mentions').where('entry_id', '=', entry.id));
  for (const m of doc.mentions) {
    store.run(
      store.q
        .insertInto('mentions')
        .values({ company_id: entry.company_id, uuid: m.uuid, entry_id: entry.id, context: m.context, created_at: entry.created_at })
        .onConflict((oc) => oc.doNothing()),
    );
  }
  store.statement('DELETE FROM entries_fts WHERE rowid = ?').run(entry.seq);
  store
    .statement('INSERT INTO entries_fts (rowid, title, body) VALUES (?, ?, ?)')
    .run(entry.seq, Object.values(doc.snippet).join(' '), `${doc.searchText} ${entry.tags.join(' ')}`);
}
