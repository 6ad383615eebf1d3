import type { Db } from '../db/engine.ts';
import { dropSearchRow } from './derived-index.ts';
import type { CompanyKey } from '../access/company-key.ts';

/**
 * Removes what finds an entry (its search row, its document's identity and
 * references, its mentions) while it is in the trash, so search, related entries and
 * number look-ups never meet it. Its restore writes them again (writeDerivedIndexes).
 */
export async function dropDerivedIndexes(db: Db, entry: { seq: number; id: string; company_id: CompanyKey }): Promise<void> {
  // By company and id: another company's entry may have the same id (issue 12).
  await dropSearchRow(db, entry.seq);
  await db.sqlRun('DELETE FROM mentions WHERE company_id = ? AND entry_id = ?', [entry.company_id, entry.id]);
  await db.sqlRun('DELETE FROM entry_identities WHERE seq = ?', [entry.seq]);
  await db.sqlRun('DELETE FROM entry_refs WHERE company_id = ? AND entry_id = ?', [entry.company_id, entry.id]);
}
