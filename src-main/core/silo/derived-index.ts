import type { Store } from '../db/store.ts';
import type { DerivedDocument } from './document.ts';
import { SORT_KEY_COLUMNS, sortKeysOf } from './sort-keys.ts';

/**
 * Writes the mention index, the document's identity and references (what "related"
 * looks up both ways), the list's sort columns and the full-text row of an entry.
 * Called inside the transaction that writes the entry itself, so derived data never drifts.
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
  writeReferences(store, entry, doc);
  writeSortKeys(store, entry.seq, doc.snippet);
  store.statement('DELETE FROM entries_fts WHERE rowid = ?').run(entry.seq);
  store
    .statement('INSERT INTO entries_fts (rowid, title, body) VALUES (?, ?, ?)')
    .run(entry.seq, Object.values(doc.snippet).join(' '), `${doc.searchText} ${entry.tags.join(' ')}`);
}

const SET_SORT_KEYS = `UPDATE entries SET ${SORT_KEY_COLUMNS.map((c) => `${c} = ?`).join(', ')} WHERE seq = ?`;

/** The list's sort columns (see sort-keys.ts); the row itself is already written. */
export function writeSortKeys(store: Store, seq: number, snippet: Record<string, string>): void {
  const keys = sortKeysOf(snippet);
  store.statement(SET_SORT_KEYS).run(...SORT_KEY_COLUMNS.map((c) => keys[c]), seq);
}

function writeReferences(store: Store, entry: { id: string; company_id: string }, doc: DerivedDocument): void {
  const { identity: me } = doc;
  const identity = { company_id: entry.company_id, type: me.type, uuid: me.uuid, series: me.series, code: me.code, issue_date: me.issueDate };
  store.run(
    store.q
      .insertInto('entry_identities')
      .values({ entry_id: entry.id, ...identity })
      .onConflict((oc) => oc.column('entry_id').doUpdateSet(identity)),
  );
  store.run(store.q.deleteFrom('entry_refs').where('entry_id', '=', entry.id));
  for (const r of doc.references) {
    store.run(
      store.q.insertInto('entry_refs').values({
        entry_id: entry.id,
        context: r.context,
        position: r.position,
        company_id: entry.company_id,
        uuid: r.uuid,
        type: r.type,
        series: r.series,
        code: r.code,
        issue_date: r.issueDate,
      }),
    );
  }
}
