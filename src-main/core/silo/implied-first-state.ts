import type { Selectable } from 'kysely';
import type { Db } from '../db/engine.ts';
import type { EntryStatesTable } from '../db/tables.ts';
import type { CompanyKey } from '../access/company-key.ts';

/**
 * An entry's first state is implied until its state first changes: it is the state the
 * entry has, at the time it was created (src `silo`). Most entries never change state
 * (an import of last year's invoices), and a stored row for each, with its index, was
 * 252 bytes of every entry on disk and an insert of every import. The row is written
 * when it stops being implied: by the trigger, as the state changes (from OLD), and by
 * a state recorded through the API (before its own row).
 */

const LATEST = `SELECT key FROM entry_states WHERE company_id = NEW.company_id AND entry_id = NEW.id ORDER BY at DESC, seq DESC LIMIT 1`;

/** Migration 0024 on SQLite: no row at insert; the first change writes the implied state first. */
export const IMPLIED_FIRST_STATE = [
  `DROP TRIGGER entry_states_insert`,
  `DROP TRIGGER entry_states_change`,
  `CREATE TRIGGER entry_states_change AFTER UPDATE OF state ON entries
   WHEN NEW.state IS NOT OLD.state AND NEW.state IS NOT coalesce((${LATEST}), OLD.state)
   BEGIN
     INSERT INTO entry_states (entry_id, company_id, at, key, src)
       SELECT NEW.id, NEW.company_id, OLD.created_at, OLD.state, 'silo'
       WHERE NOT EXISTS (SELECT 1 FROM entry_states WHERE company_id = NEW.company_id AND entry_id = NEW.id);
     INSERT INTO entry_states (entry_id, company_id, at, key, src) VALUES (NEW.id, NEW.company_id, NEW.updated_at, NEW.state, 'silo');
   END`,
  dropImpliedRows(),
];

/** Migration 0009 on PostgreSQL: the same rule in its trigger function. */
export const IMPLIED_FIRST_STATE_PG = [
  `DROP TRIGGER entry_states_insert ON entries`,
  `CREATE OR REPLACE FUNCTION entry_states_record() RETURNS trigger LANGUAGE plpgsql AS $$
   DECLARE
     v_latest text;
   BEGIN
     IF NEW.state IS DISTINCT FROM OLD.state THEN
       ${LATEST.replace('SELECT key FROM', 'SELECT key INTO v_latest FROM')};
       IF NOT FOUND THEN
         INSERT INTO entry_states (entry_id, company_id, at, key, src) VALUES (NEW.id, NEW.company_id, OLD.created_at, OLD.state, 'silo');
         v_latest := OLD.state;
       END IF;
       IF NEW.state IS DISTINCT FROM v_latest THEN
         INSERT INTO entry_states (entry_id, company_id, at, key, src) VALUES (NEW.id, NEW.company_id, NEW.updated_at, NEW.state, 'silo');
       END IF;
     END IF;
     RETURN NULL;
   END $$`,
  dropImpliedRows(),
];

/** The rows a migration finds implied already: an entry's only state, its first, unchanged since. */
function dropImpliedRows(): string {
  return `DELETE FROM entry_states WHERE seq IN (
    SELECT s.seq FROM entry_states s JOIN entries e ON e.company_id = s.company_id AND e.id = s.entry_id
    WHERE s.src = 'silo' AND s.at = e.created_at AND s.key = e.state AND s.src_id = '' AND s.notes = '' AND s.meta = '{}' AND s.faults = '[]'
      AND NOT EXISTS (SELECT 1 FROM entry_states o WHERE o.company_id = s.company_id AND o.entry_id = s.entry_id AND o.seq <> s.seq))`;
}

/** The first state of an entry with no stored states, as its row would read: the state it has, since it was created. */
export const impliedFirstState = (entry: { id: string; company_id: CompanyKey; state: string; created_at: string }): Selectable<EntryStatesTable> => ({
  seq: 0,
  entry_id: entry.id,
  company_id: entry.company_id,
  at: entry.created_at,
  key: entry.state,
  src: 'silo',
  src_id: '',
  notes: '',
  meta: '{}',
  faults: '[]',
});

/** Stores the entry's implied first state, unless it has states stored: before a state is recorded beside it. */
export async function storeImpliedFirstState(db: Db, companyKey: CompanyKey, entryId: string): Promise<void> {
  await db.sqlRun(
    `INSERT INTO entry_states (entry_id, company_id, at, key, src)
     SELECT id, company_id, created_at, state, 'silo' FROM entries e WHERE e.company_id = ? AND e.id = ?
       AND NOT EXISTS (SELECT 1 FROM entry_states s WHERE s.company_id = e.company_id AND s.entry_id = e.id)`,
    [companyKey, entryId],
  );
}
