import { sql, type Kysely } from 'kysely';
import type { NotACompanyKey } from '../access/company-key.ts';

/**
 * The silo at a million entries (issue 13):
 *
 * - The full-text index keeps no copy of the text (`content=''`): the entry row holds
 *   the document, and the index only answers which rows match and how well. Rows are
 *   still deleted by rowid (`contentless_delete`). A third column holds one token per
 *   company (companyToken), so a search is narrowed to the company inside the index
 *   and the best hits are picked without reading a single entry row.
 * - Folder and tag counts are kept by triggers on `entries`, so listing folders reads a
 *   handful of rows instead of counting a million, and no write path (an import, a
 *   patch, a workflow step, sync) can leave them behind.
 * - `entry_identities_uuid` goes: a document's uuid is found through
 *   `entries_company_doc_uuid`, which holds the same thing.
 */
export const SCALE_SCHEMA = [
  `CREATE VIRTUAL TABLE entries_fts_next USING fts5(
     title, body, company, content = '', contentless_delete = 1, tokenize = 'unicode61 remove_diacritics 2')`,
  `CREATE TABLE entry_folder_counts (
     company_id TEXT NOT NULL,
     folder TEXT NOT NULL,
     count INTEGER NOT NULL,
     PRIMARY KEY (company_id, folder)
   ) STRICT, WITHOUT ROWID`,
  `CREATE TABLE entry_tag_counts (
     company_id TEXT NOT NULL,
     tag TEXT NOT NULL,
     count INTEGER NOT NULL,
     PRIMARY KEY (company_id, tag)
   ) STRICT, WITHOUT ROWID`,
  `INSERT INTO entry_folder_counts (company_id, folder, count)
     SELECT company_id, folder, count(*) FROM entries GROUP BY company_id, folder`,
  `INSERT INTO entry_tag_counts (company_id, tag, count)
     SELECT e.company_id, t.value, count(DISTINCT e.seq) FROM entries e, json_each(e.tags) t GROUP BY e.company_id, t.value`,
  `CREATE TRIGGER entries_count_insert AFTER INSERT ON entries BEGIN
     INSERT INTO entry_folder_counts (company_id, folder, count) VALUES (NEW.company_id, NEW.folder, 1)
       ON CONFLICT (company_id, folder) DO UPDATE SET count = count + 1;
     INSERT INTO entry_tag_counts (company_id, tag, count) SELECT DISTINCT NEW.company_id, value, 1 FROM json_each(NEW.tags) WHERE true
       ON CONFLICT (company_id, tag) DO UPDATE SET count = count + 1;
   END`,
  `CREATE TRIGGER entries_count_delete AFTER DELETE ON entries BEGIN
     UPDATE entry_folder_counts SET count = count - 1 WHERE company_id = OLD.company_id AND folder = OLD.folder;
     DELETE FROM entry_folder_counts WHERE company_id = OLD.company_id AND folder = OLD.folder AND count <= 0;
     UPDATE entry_tag_counts SET count = count - 1
       WHERE company_id = OLD.company_id AND tag IN (SELECT value FROM json_each(OLD.tags));
     DELETE FROM entry_tag_counts WHERE company_id = OLD.company_id AND count <= 0;
   END`,
  `CREATE TRIGGER entries_count_folder AFTER UPDATE OF company_id, folder ON entries
     WHEN OLD.company_id IS NOT NEW.company_id OR OLD.folder IS NOT NEW.folder BEGIN
     UPDATE entry_folder_counts SET count = count - 1 WHERE company_id = OLD.company_id AND folder = OLD.folder;
     DELETE FROM entry_folder_counts WHERE company_id = OLD.company_id AND folder = OLD.folder AND count <= 0;
     INSERT INTO entry_folder_counts (company_id, folder, count) VALUES (NEW.company_id, NEW.folder, 1)
       ON CONFLICT (company_id, folder) DO UPDATE SET count = count + 1;
   END`,
  `CREATE TRIGGER entries_count_tags AFTER UPDATE OF company_id, tags ON entries
     WHEN OLD.company_id IS NOT NEW.company_id OR OLD.tags IS NOT NEW.tags BEGIN
     UPDATE entry_tag_counts SET count = count - 1
       WHERE company_id = OLD.company_id AND tag IN (SELECT value FROM json_each(OLD.tags));
     DELETE FROM entry_tag_counts WHERE company_id = OLD.company_id AND count <= 0;
     INSERT INTO entry_tag_counts (company_id, tag, count) SELECT DISTINCT NEW.company_id, value, 1 FROM json_each(NEW.tags) WHERE true
       ON CONFLICT (company_id, tag) DO UPDATE SET count = count + 1;
   END`,
  `DROP INDEX IF EXISTS entry_identities_uuid`,
];

/**
 * The search index's token for a company, made of its public id (never its key: the
 * rows indexed before keys came keep their tokens): hex, so any id is one token the
 * tokenizer keeps whole.
 */
export function companyToken(companyId: NotACompanyKey): string {
  return `c${Buffer.from(companyId, 'utf8').toString('hex')}`;
}

/**
 * Moves every entry's search row into the new index, with its company's token, a
 * page at a time, then puts the new index in the old one's place.
 */
export async function moveSearchIndex(db: Kysely<any>): Promise<void> {
  let after = 0;
  for (;;) {
    const page = await sql<{ seq: number; company_id: string; title: string; body: string }>`
      SELECT e.seq, e.company_id, f.title, f.body FROM entries e JOIN entries_fts f ON f.rowid = e.seq
      WHERE e.seq > ${after} ORDER BY e.seq LIMIT 2000`.execute(db);
    if (page.rows.length === 0) break;
    for (const row of page.rows) {
      await sql`INSERT INTO entries_fts_next (rowid, title, body, company)
        VALUES (${row.seq}, ${row.title}, ${row.body}, ${companyToken(row.company_id)})`.execute(db);
    }
    after = page.rows[page.rows.length - 1].seq;
  }
  await sql`DROP TABLE entries_fts`.execute(db);
  await sql`ALTER TABLE entries_fts_next RENAME TO entries_fts`.execute(db);
}
