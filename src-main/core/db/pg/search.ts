/**
 * Full-text search on PostgreSQL: where SQLite keeps a contentless FTS5 index keyed by
 * the entry's row (entries_fts), PostgreSQL keeps a tsvector per entry with a GIN
 * index. Like the FTS5 rows, each vector carries its company as a word of its own
 * (`c<company id>`, weight D), so a search is one index look-up that cannot cross
 * companies; the 'simple' configuration keeps words as written (numbers, codes, names
 * in any language), with accents folded by `unaccent` as FTS5's remove_diacritics does.
 */
export const SEARCH = [
  `CREATE EXTENSION IF NOT EXISTS unaccent`,
  `CREATE TABLE entries_search (
     seq bigint PRIMARY KEY REFERENCES entries(seq) ON DELETE CASCADE,
     words tsvector NOT NULL
   )`,
  `CREATE INDEX entries_search_words ON entries_search USING gin (words)`,
];
