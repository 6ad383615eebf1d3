import type { Store } from '../db/store.ts';

/**
 * Removes what finds an entry (its search row, its document's identity and
 * references, its mentions) while it is in the trash, so search, related entries and
 * number look-ups never meet it. Its restore writes them again (writeDerivedIndexes).
 */
export function dropDerivedIndexes(store: Store, entry: { seq: number; id: string }): void {
  store.statement('DELETE FROM entries_fts WHERE rowid = ?').run(entry.seq);
  store.statement('DELETE FROM mentions WHERE entry_id = ?').run(entry.id);
  store.statement('DELETE FROM entry_identities WHERE entry_id = ?').run(entry.id);
  store.statement('DELETE FROM entry_refs WHERE entry_id = ?').run(entry.id);
}
