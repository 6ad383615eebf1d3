import type { Db } from '../db/engine.ts';

/**
 * The words of the full-text index, so a search can name the words a prefix stands for.
 *
 * Search as you type ends in a prefix ("invoi"), and FTS5 answers a prefix by merging
 * the whole list of every word that starts with it before it gives a first hit: at a
 * million entries 29 ms for "invoice" and 54 ms for "202", however small the page. The
 * same words named one by one ("invoice" OR "invoices") are read lazily, newest first,
 * and the page stops early: 0.16 ms. The index cannot list its own words cheaply
 * (fts5vocab counts every word's documents as it goes: 17–96 ms), so they are kept here.
 *
 * The words are FTS5's own, never a tokenizer of ours: every search row's text also goes
 * into `search_terms_fresh`, a small index with the same tokenizer, and every FOLD_EVERY
 * rows its words are added to `search_terms` and it is emptied. A search reads both. A
 * word stays once its entries are gone (a word naming no entry costs the query one seek),
 * and `docs` only grows, so it is an estimate of how long the word's list is, never less.
 *
 * Numbers are kept too, though they are most of an invoice's distinct words (codes,
 * amounts, tax ids: 1.0 of the 1.1 million words at a million entries) and double a fold
 * (3.8 → 7.0 ms for 1,000 rows there, about 3 µs a row): a year typed in part is what an
 * accountant searches for, and "202" took 54 ms merged against 14 ms named.
 */
export const SEARCH_TERMS_SCHEMA = [
  `CREATE TABLE search_terms (term TEXT PRIMARY KEY, docs INTEGER NOT NULL) STRICT, WITHOUT ROWID`,
  // The tokenizer of entries_fts (scale-migration.ts): a word must come out the same in both.
  `CREATE VIRTUAL TABLE search_terms_fresh USING fts5(text, content = '', detail = none, tokenize = 'unicode61 remove_diacritics 2')`,
  `CREATE VIRTUAL TABLE search_terms_fresh_vocab USING fts5vocab(search_terms_fresh, row)`,
  `CREATE VIRTUAL TABLE temp.entries_fts_words USING fts5vocab(main, entries_fts, col)`,
  `INSERT INTO search_terms (term, docs)
     SELECT term, sum(doc) FROM temp.entries_fts_words WHERE col IN ('title', 'body') GROUP BY term`,
  `DROP TABLE temp.entries_fts_words`,
];

/**
 * Rows the small index takes before its words are folded in. Per row, with invoices'
 * text at 10,000 entries: 11.6 µs to index it here, and the fold 31 µs every 64 rows,
 * 13.5 every 256, 10 every 1,000 (a common word is upserted once a fold). The fold runs
 * inside the transaction of the write that fills it, and at a million entries one of
 * 1,000 rows took 2.5–3.7 ms warm and 10.4 ms on a cold cache: a slice of an import
 * would grow by that much, so folds are kept to a quarter of it.
 */
export const FOLD_EVERY = 250;

const NOTE_TEXT = 'INSERT INTO search_terms_fresh (text) VALUES (?)';
const FRESH_ROWS = 'SELECT count(*) AS n FROM search_terms_fresh';
const FOLD_WORDS = `INSERT INTO search_terms (term, docs) SELECT term, doc FROM search_terms_fresh_vocab WHERE true
  ON CONFLICT (term) DO UPDATE SET docs = docs + excluded.docs`;
const EMPTY_FRESH = `INSERT INTO search_terms_fresh (search_terms_fresh) VALUES ('delete-all')`;

/** Rows in each database's small index, as this process last knew (read from the table on first use). */
const freshRows = new WeakMap<Db, number>();

/**
 * Records the words of a search row's text. SQLite only, inside the transaction that
 * writes the row, so a word is known as soon as an entry holds it. A rolled-back fold
 * leaves the count low, which only makes the small index larger until the next fold.
 */
export async function noteSearchWords(db: Db, text: string): Promise<void> {
  const known = freshRows.get(db) ?? (await db.sqlFirst<{ n: number }>(FRESH_ROWS))?.n ?? 0;
  await db.sqlRun(NOTE_TEXT, [text]);
  if (known + 1 < FOLD_EVERY) {
    freshRows.set(db, known + 1);
    return;
  }
  await foldFreshWords(db);
}

/** Adds the small index's words to `search_terms` and empties it. */
async function foldFreshWords(db: Db): Promise<void> {
  await db.sqlRun(FOLD_WORDS);
  await db.sqlRun(EMPTY_FRESH);
  freshRows.set(db, 0);
}

/** More words than this and the prefix is merged whole: naming them would cost more (about 15 µs a word). */
export const MAX_NAMED = 2000;
/**
 * A named word costs a seek, about 15 µs at a million entries; the merge costs about 30 ns
 * for each entry on each word's list (measured: "202" has 1,003 words on 2.06 million
 * lists, 14 ms named against 54 ms merged; "000" has 11,830 on 222,701, 236 ms against 8 ms).
 */
const NAMED_COST_IN_LISTED = 500;

const WORDS_WITH_PREFIX = `SELECT term, docs FROM search_terms WHERE term >= ? AND term < ?
  UNION ALL SELECT term, doc FROM search_terms_fresh_vocab WHERE term >= ? AND term < ?
  LIMIT ${MAX_NAMED * 2 + 1}`;

/**
 * The index's words that start with `prefix`, each with its estimated list length;
 * undefined when there are more than MAX_NAMED, or the prefix has letters outside ASCII
 * (FTS5 folds those by its own Unicode tables, and a word folded differently here would
 * be missed).
 */
export async function prefixWords(db: Db, prefix: string): Promise<Map<string, number> | undefined> {
  if (db.dialect !== 'sqlite' || !/^[A-Za-z0-9]+$/.test(prefix)) return undefined;
  const low = prefix.toLowerCase(); // what unicode61 makes of ASCII letters and digits
  const high = low.slice(0, -1) + String.fromCharCode(low.charCodeAt(low.length - 1) + 1);
  const rows = await db.sql<{ term: string; docs: number }>(WORDS_WITH_PREFIX, [low, high, low, high]);
  if (rows.length > MAX_NAMED * 2) return undefined;
  const words = new Map<string, number>();
  for (const { term, docs } of rows) words.set(term, (words.get(term) ?? 0) + docs);
  return words.size > MAX_NAMED ? undefined : words;
}

/** Whether naming these words reads less than merging their lists; never for none (a merge of nothing is free). */
export function worthNaming(words: Map<string, number>): boolean {
  let listed = 0;
  for (const docs of words.values()) listed += docs;
  return words.size > 0 && words.size * NAMED_COST_IN_LISTED < listed;
}

/** The words to name for a prefix typed last, or undefined to let FTS5 merge `"prefix"*` (always right). */
export async function wordsWithPrefix(db: Db, prefix: string): Promise<string[] | undefined> {
  const words = await prefixWords(db, prefix);
  return words && worthNaming(words) ? [...words.keys()] : undefined;
}
