/**
 * Full-text search on PostgreSQL: where SQLite keeps a contentless FTS5 index keyed by
 * the entry's row (entries_fts), PostgreSQL keeps a tsvector per entry with a GIN
 * index. Like the FTS5 rows, each vector carries its company as a word of its own
 * (`c<company id>`, weight D; the document's words are weight A), so a search is one
 * index look-up that cannot cross companies.
 *
 * The words are cut here, not by a text search configuration: PostgreSQL's parser
 * keeps `12.50`, `a@b.com` or `SAMPLE-001` as tokens of their own (and under the C
 * locale the cluster runs with, it does not know a non-ASCII letter), where FTS5's
 * unicode61 makes `12`, `50`… So both engines index the same words: runs of letters
 * and digits, lower-cased, diacritics removed (FTS5's remove_diacritics 2). The
 * vector and the query are then given as literals of those words (a parameter, never
 * SQL text), which PostgreSQL takes as they are, with no parser in between.
 */
export const SEARCH = [
  `CREATE EXTENSION IF NOT EXISTS unaccent`,
  `CREATE TABLE entries_search (
     seq bigint PRIMARY KEY REFERENCES entries(seq) ON DELETE CASCADE,
     words tsvector NOT NULL
   )`,
  `CREATE INDEX entries_search_words ON entries_search USING gin (words)`,
];

/** FTS5's unicode61 token characters (its default categories: L* N* Co). */
const TOKEN = /[\p{L}\p{N}\p{Co}]+/gu;
/** PostgreSQL refuses a lexeme of more than 2046 bytes; no one searches for such a word. */
const MAX_WORD_BYTES = 2046;
/** tsvector positions stop at 16383; one position per distinct word is all a weight needs. */
const MAX_POSITION = 16383;
/** A tsvector holds at most 1 MB: the words past this many bytes of a huge document are left out. */
const MAX_VECTOR_BYTES = 900_000;

const LATIN = /\p{Script=Latin}/u;

/**
 * A word as FTS5 folds it, character by character: lower case (a final ς as σ, as
 * FTS5 has it, where a whole-word toLowerCase would keep ς), and diacritics removed
 * from Latin letters only: FTS5's remove_diacritics leaves Greek ά or Cyrillic й as
 * they are, so `αθηνα` no more finds `Αθήνα` here than there.
 */
export function foldWord(word: string): string {
  let out = '';
  for (const ch of word) {
    const lower = ch.toLowerCase();
    out += LATIN.test(ch) ? lower.normalize('NFD').replace(/\p{M}+/gu, '') : lower === 'ς' ? 'σ' : lower;
  }
  return out.normalize('NFC');
}

/** The distinct folded words of a text, as FTS5's unicode61 tokenizer cuts it. */
export function searchWords(text: string): string[] {
  const words = new Set<string>();
  for (const token of text.match(TOKEN) ?? []) {
    const word = foldWord(token);
    if (word !== '' && Buffer.byteLength(word) <= MAX_WORD_BYTES) words.add(word);
  }
  return [...words];
}

/** A lexeme quoted for a tsvector/tsquery literal (words are letters and digits; quoting is belt and braces). */
const lexeme = (word: string) => `'${word.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;

/** The tsvector literal of an entry: its words at weight A, its company's token at weight D. */
export function searchVector(texts: string[], companyToken: string): string {
  const at = (i: number) => Math.min(i + 1, MAX_POSITION);
  const parts: string[] = [];
  let bytes = 0;
  for (const word of searchWords(texts.join(' '))) {
    const part = `${lexeme(word)}:${at(parts.length)}A`;
    bytes += Buffer.byteLength(part) + 1;
    if (bytes > MAX_VECTOR_BYTES) break;
    parts.push(part);
  }
  return [...parts, `${lexeme(companyToken)}:${at(parts.length)}D`].join(' ');
}

/**
 * The tsquery literal of a search within a company: every word (folded as the index
 * folds them) in the document's words, the last a prefix when `prefixLast`, and the
 * company's token. Undefined when it can match nothing (no word, or one too long to be indexed).
 */
export function searchQueryText(words: string[], prefixLast: boolean, companyToken: string): string | undefined {
  const folded = words.map(foldWord).filter((w) => w !== '');
  // A word longer than any the index keeps is in no document (and PostgreSQL would refuse the query).
  if (folded.length === 0 || folded.some((w) => Buffer.byteLength(w) > MAX_WORD_BYTES)) return undefined;
  const terms = folded.map((w, i) => `${lexeme(w)}:${i === folded.length - 1 && prefixLast ? '*' : ''}A`);
  return [...terms, `${lexeme(companyToken)}:D`].join(' & ');
}

// The twins of derived-index.ts's FTS5 statements (entries_fts), by the entry's seq.
export const DELETE_SEARCH_ROW_PG = 'DELETE FROM entries_search WHERE seq = ?';
export const UPSERT_SEARCH_ROW_PG = `INSERT INTO entries_search (seq, words) VALUES (?, ?::tsvector)
  ON CONFLICT (seq) DO UPDATE SET words = excluded.words`;
