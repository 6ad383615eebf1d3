import type { Db } from '../db/engine.ts';
import { DELETE_SEARCH_ROW_PG, searchVector, UPSERT_SEARCH_ROW_PG } from '../db/pg/search.ts';
import type { DerivedDocument } from './document.ts';
import { companyToken } from './scale-migration.ts';
import { noteSearchWords } from './search-terms.ts';
import { SORT_KEY_COLUMNS, sortKeysOf } from './sort-keys.ts';
import { companyIdOf, type CompanyKey } from '../access/company-key.ts';

export interface DerivedOf {
  seq: number;
  id: string;
  company_id: CompanyKey;
  created_at: string;
  folder: string;
  tags: string[];
  /** a row written just now in this transaction: it has no derived rows to replace */
  fresh?: boolean;
  /** its sort columns were written with the row (bulk import), so they are not set again */
  sortKeysWritten?: boolean;
  /**
   * Its derived rows are in place, and what they were built from did not change: the
   * document (mentions, identity, references and search text come from it alone, and its
   * digest names it), the snippet (sort columns, search title), the tags (search body).
   * What would come out the same is not written again.
   */
  kept?: { document: boolean; snippet: boolean; tags: boolean };
}

// Constant SQL text: the database keeps each prepared once, and a look-up hashes nothing new.
// Every look-up names the company first: an entry id is only unique within its company (issue 12).
const DELETE_MENTIONS = 'DELETE FROM mentions WHERE company_id = ? AND entry_id = ?';
const INSERT_MENTION = 'INSERT INTO mentions (company_id, uuid, entry_id, context, created_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING';
// Keyed by the entry's seq (identities-by-seq.ts); a document is found by its uuid through entries.doc_uuid.
const UPSERT_IDENTITY = `INSERT INTO entry_identities (seq, company_id, type, series, code, issue_date) VALUES (?, ?, ?, ?, ?, ?)
  ON CONFLICT (seq) DO UPDATE SET type = excluded.type, series = excluded.series, code = excluded.code, issue_date = excluded.issue_date`;
const DELETE_REFS = 'DELETE FROM entry_refs WHERE company_id = ? AND entry_id = ?';
const INSERT_REF = `INSERT INTO entry_refs (entry_id, context, position, company_id, uuid, type, series, code, issue_date)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`;
const DELETE_SEARCH_ROW = 'DELETE FROM entries_fts WHERE rowid = ?';
const INSERT_SEARCH_ROW = 'INSERT INTO entries_fts (rowid, title, body, company) VALUES (?, ?, ?, ?)';
const SET_SORT_KEYS = `UPDATE entries SET ${SORT_KEY_COLUMNS.map((c) => `${c} = ?`).join(', ')} WHERE seq = ?`;

/**
 * Writes the mention index, the document's identity and references (what "related"
 * looks up both ways), the list's sort columns and the full-text row of an entry.
 * Called inside the transaction that writes the entry itself, so derived data never
 * drifts. A fresh row has nothing to replace, so nothing is deleted first. (A bulk
 * write makes and writes the same rows itself, a slice at a time: bulk-commit.ts.)
 */
export async function writeDerivedIndexes(db: Db, entry: DerivedOf, doc: DerivedDocument): Promise<void> {
  const { kept } = entry;
  if (!kept?.document) {
    if (!entry.fresh) await db.sqlRun(DELETE_MENTIONS, [entry.company_id, entry.id]);
    await writeDocumentRows(db, entry, documentRowsOf(entry, doc));
  }
  if (!entry.sortKeysWritten && !kept?.snippet) await writeSortKeys(db, entry.seq, doc.snippet);
  if (!(kept?.document && kept.snippet && kept.tags)) await writeSearchRow(db, entry, searchRowOf(doc, entry.tags));
}

/** A fresh entry's full-text row, held back to be written with the rest of its batch (writeFreshSearchRows). */
export interface SearchRowLater {
  entry: DerivedOf;
  row: [title: string, body: string];
}

/**
 * The full-text rows of fresh entries a bulk write held back, written after all their
 * entries (bulk-commit.ts), in the same transaction. FTS5 keeps the rows it is given in
 * memory until the transaction ends, unless a statement that opens a statement journal
 * comes first (an insert into entries does: its triggers): that writes them out as a
 * segment of their own. Written entry by entry, every entry's insert wrote the row of
 * the one before as a segment (and its merges): 125 µs an insert instead of 68. Held back,
 * the whole batch is one segment, as the raw insert floor writes it. The words noted for
 * prefixes (search-terms.ts) come after every row, so a fold does not write the rows out either.
 */
export async function writeFreshSearchRows(db: Db, later: SearchRowLater[]): Promise<void> {
  if (db.dialect === 'postgres') {
    for (const { entry, row } of later) await writeSearchRow(db, entry, row);
    return;
  }
  for (const { entry, row: [title, body] } of later) {
    await db.sqlRun(INSERT_SEARCH_ROW, [entry.seq, title, body, companyToken(await companyIdOf(db, entry.company_id))]);
  }
  for (const { row: [title, body] } of later) await noteSearchWords(db, `${title} ${body}`);
}

/**
 * The entry's full-text row: FTS5's (title, body, company token), or on PostgreSQL the
 * same words and token as one tsvector (pg/search.ts), replaced in one upsert.
 */
async function writeSearchRow(db: Db, entry: DerivedOf, [title, body]: [string, string]): Promise<void> {
  if (db.dialect === 'postgres') {
    await db.sqlRun(UPSERT_SEARCH_ROW_PG, [entry.seq, searchVector([title, body], companyToken(await companyIdOf(db, entry.company_id)))]);
    return;
  }
  if (!entry.fresh) await db.sqlRun(DELETE_SEARCH_ROW, [entry.seq]);
  await db.sqlRun(INSERT_SEARCH_ROW, [entry.seq, title, body, companyToken(await companyIdOf(db, entry.company_id))]);
  await noteSearchWords(db, `${title} ${body}`);
}

/** Removes an entry's full-text row, on either engine (a trashed or purged entry is found by no search). */
export async function dropSearchRow(db: Db, seq: number): Promise<void> {
  await db.sqlRun(db.dialect === 'postgres' ? DELETE_SEARCH_ROW_PG : DELETE_SEARCH_ROW, [seq]);
}

/** The full-text row's title and body: the snippet's values, and the document's text with the tags. */
export function searchRowOf(doc: { snippet: Record<string, unknown>; searchText: string }, tags: string[]): [title: string, body: string] {
  return [Object.values(doc.snippet).join(' '), `${doc.searchText} ${tags.join(' ')}`];
}

/** The list's sort columns (see sort-keys.ts); the row itself is already written. */
export async function writeSortKeys(db: Db, seq: number, snippet: Record<string, string>): Promise<void> {
  const keys = sortKeysOf(snippet);
  await db.sqlRun(SET_SORT_KEYS, [...SORT_KEY_COLUMNS.map((c) => keys[c]), seq]);
}

/** The rows of an entry's document's own indexes (mentions, identity, references), as their statements take them. */
export interface DocumentRows {
  mentions: unknown[][];
  /** the identity's values after its key, the entry's seq (known once the row is written) */
  identity: unknown[];
  refs: unknown[][];
}

/** What writeDocumentRows writes for `doc`: a bulk write makes these for a whole slice first, then writes them (bulk-commit.ts). */
export function documentRowsOf(entry: Pick<DerivedOf, 'id' | 'company_id' | 'created_at'>, doc: DerivedDocument): DocumentRows {
  const { identity: me } = doc;
  return {
    mentions: doc.mentions.map((m) => [entry.company_id, m.uuid, entry.id, m.context, entry.created_at]),
    identity: [entry.company_id, me.type, me.series, me.code, me.issueDate],
    refs: doc.references.map((r) => [entry.id, r.context, r.position, entry.company_id, r.uuid, r.type, r.series, r.code, r.issueDate]),
  };
}

/** The mention index, the document's identity and its references; a fresh entry has no references to replace. */
export async function writeDocumentRows(db: Db, entry: Pick<DerivedOf, 'seq' | 'id' | 'company_id' | 'fresh'>, rows: DocumentRows): Promise<void> {
  for (const mention of rows.mentions) await db.sqlRun(INSERT_MENTION, mention);
  await db.sqlRun(UPSERT_IDENTITY, [entry.seq, ...rows.identity]);
  if (!entry.fresh) await db.sqlRun(DELETE_REFS, [entry.company_id, entry.id]);
  for (const ref of rows.refs) await db.sqlRun(INSERT_REF, ref);
}
