import { sql, type Kysely } from 'kysely';
import { searchTextOf } from '../gobl/index.ts';
import { searchRowOf } from './derived-index.ts';
import { documentText, type StoredDocument } from './packed-document.ts';
import { companyToken } from './scale-migration.ts';
import { snippetFromStored } from './stored-snippet.ts';

/**
 * Migration 0027: the full-text index keeps which column holds each word of an entry,
 * no longer where in it (FTS5 `detail=column`). Every query it answers is of single
 * words, whole or as a prefix, under a column filter for the company
 * (search.ts ftsQueryOf): none needs positions, which were 137 of its 323 bytes an
 * entry. The index holds no text (contentless), so it is built anew from each entry's
 * document, as a write makes its row (derived-index.ts), a page of entries at a time;
 * an entry in the trash has none.
 */
export async function searchIndexByColumn(db: Kysely<any>): Promise<void> {
  await sql
    .raw(`CREATE VIRTUAL TABLE entries_fts_next USING fts5(
      title, body, company, content = '', contentless_delete = 1, detail = column, tokenize = 'unicode61 remove_diacritics 2')`)
    .execute(db);
  for (let after = 0; ; ) {
    const page = await sql<{ seq: number; id: string; company_id: string; snippet: string; tags: string; data: StoredDocument }>`
      SELECT seq, id, company_id, snippet, tags, data FROM entries WHERE seq > ${after} AND trashed_at IS NULL ORDER BY seq LIMIT ${PAGE}`.execute(db);
    if (page.rows.length === 0) break;
    const values = page.rows.map((e) => {
      const envelope = JSON.parse(documentText(e.data, e.id)) as { doc?: unknown };
      const doc = typeof envelope.doc === 'object' && envelope.doc !== null ? envelope.doc : {};
      const [title, body] = searchRowOf({ snippet: snippetFromStored(e.snippet), searchText: searchTextOf(doc) }, JSON.parse(e.tags) as string[]);
      return sql`(${e.seq}, ${title}, ${body}, ${companyToken(e.company_id)})`;
    });
    await sql`INSERT INTO entries_fts_next (rowid, title, body, company) VALUES ${sql.join(values)}`.execute(db);
    after = page.rows[page.rows.length - 1].seq;
  }
  await sql`DROP TABLE entries_fts`.execute(db);
  await sql`ALTER TABLE entries_fts_next RENAME TO entries_fts`.execute(db);
}

/** Entries a page: one INSERT of this many rows keeps within SQLite's 32,766 parameters (four each). */
const PAGE = 2000;
