import { documentText, type StoredDocument } from './packed-document.ts';
import { sql, type Kysely } from 'kysely';
import { snippetOf } from '../gobl/snippet.ts';
import { SORT_KEY_COLUMNS, sortKeysOf } from './sort-keys.ts';

/**
 * The entry list's sort columns (sort-keys.ts), one index each over (company, column,
 * created_at, id) so that any sort is a keyset walk of one index; the issue-date index
 * gains created_at and id for the same reason (0023 takes them out of seven of these
 * again: sort-ties.ts). Saved views of the list, per company.
 */
export const LIST_SCHEMA = [
  `ALTER TABLE entries ADD COLUMN due_date TEXT`,
  `ALTER TABLE entries ADD COLUMN number_key TEXT`,
  `ALTER TABLE entries ADD COLUMN supplier_key TEXT`,
  `ALTER TABLE entries ADD COLUMN customer_key TEXT`,
  `ALTER TABLE entries ADD COLUMN currency TEXT`,
  `ALTER TABLE entries ADD COLUMN net_e4 INTEGER`,
  `ALTER TABLE entries ADD COLUMN tax_e4 INTEGER`,
  `ALTER TABLE entries ADD COLUMN total_e4 INTEGER`,
  `DROP INDEX IF EXISTS entries_company_issue_date`,
  `CREATE INDEX entries_sort_issue_date ON entries(company_id, issue_date, created_at, id)`,
  `CREATE INDEX entries_sort_due_date ON entries(company_id, due_date, created_at, id)`,
  `CREATE INDEX entries_sort_number ON entries(company_id, number_key, created_at, id)`,
  `CREATE INDEX entries_sort_supplier ON entries(company_id, supplier_key, created_at, id)`,
  `CREATE INDEX entries_sort_customer ON entries(company_id, customer_key, created_at, id)`,
  `CREATE INDEX entries_sort_net ON entries(company_id, net_e4, created_at, id)`,
  `CREATE INDEX entries_sort_tax ON entries(company_id, tax_e4, created_at, id)`,
  `CREATE INDEX entries_sort_total ON entries(company_id, total_e4, created_at, id)`,
  `CREATE INDEX entries_sort_state ON entries(company_id, state, created_at, id)`,
  `CREATE TABLE entry_views (
     id TEXT PRIMARY KEY,
     company_id TEXT NOT NULL,
     name TEXT NOT NULL,
     body TEXT NOT NULL,
     created_at TEXT NOT NULL,
     updated_at TEXT NOT NULL,
     UNIQUE (company_id, name)
   ) STRICT`,
];

/**
 * Re-derives every stored entry's snippet (it gained due_date, net and tax) and fills
 * its sort columns, a page at a time. A row whose data does not parse keeps its snippet.
 */
export async function backfillListColumns(db: Kysely<any>): Promise<void> {
  let after = 0;
  for (;;) {
    const page = await sql<{ seq: number; id: string; data: StoredDocument }>`
      SELECT seq, id, data FROM entries WHERE seq > ${after} ORDER BY seq LIMIT 500`.execute(db);
    if (page.rows.length === 0) return;
    for (const row of page.rows) {
      let envelope: unknown;
      try {
        envelope = JSON.parse(documentText(row.data, row.id));
      } catch {
        continue;
      }
      const snippet = snippetOf(envelope);
      const keys = sortKeysOf(snippet);
      const sets = SORT_KEY_COLUMNS.map((c) => sql`${sql.ref(c)} = ${keys[c]}`);
      await sql`UPDATE entries SET snippet = ${JSON.stringify(snippet)}, ${sql.join(sets)} WHERE seq = ${row.seq}`.execute(db);
    }
    after = page.rows[page.rows.length - 1].seq;
  }
}
