import type { Store } from '../db/store.ts';

/**
 * Removes what finds an entry (its search row, its document's identity and
 * references, its mentions) while it is in the trash, so search, related entries and
 * number look-ups never meet it. Its restore writes them again (writeDerivedIndexes).
 */
export function dropDerivedIndexes(store: Store, entry: { seq: number; id: string; company_id: string }): void {
  // By company and id: another company's entry may have the same id (issue 12).
  store.statement('DELETE FROM entries_fts WHERE rowid = ?').run(entry.seq);
  store.statement('DELETE FROM mentions WHERE company_id = ? AND entry_id = ?').run(entry.company_id, entry.id);
  store.statement('DELETE FROM entry_identities WHERE company_id = ? AND entry_id = ?').run(entry.company_id, entry.id);
  store.statement('DELETE FROM entry_refs WHERE company_id = ? AND entry_id = ?').run(entry.company_id, entry.id);
}
