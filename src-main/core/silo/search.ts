import type { Operations } from '../api/contract/index.ts';
import type { Ctx } from '../api/handler.ts';
import type { Db, Dialect } from '../db/engine.ts';
import { searchQueryText } from '../db/pg/search.ts';
import type { ParsedInput } from '../api/operation.ts';
import { entryViews, VIEW_COLUMNS, type EntryView, type ViewRow } from './entry-view.ts';
import { filterSql } from './entry-filters.ts';
import { companyToken } from './scale-migration.ts';
import { wordsWithPrefix } from './search-terms.ts';
import type { CompanyKey } from '../access/company-key.ts';
import type { Caller } from '../access/tokens.ts';

/** Words of fewer characters are matched whole, not as prefixes: "s"* stands for every word with an s, a merge of half the index. */
export const PREFIX_MIN = 3;

/**
 * Turns what a person types into a safe FTS5 query: words are quoted (so no FTS
 * syntax from the input is ever interpreted) and the last one is a prefix, for
 * search as you type (when it has PREFIX_MIN characters or more). "SAMPLE-001" becomes
 * "sample" AND "001"*. With `prefixWords` the prefix is those words instead, ORed (FTS5
 * takes no implicit AND before a parenthesis). Only the document's columns are searched,
 * never the company column.
 */
export function ftsQueryOf(text: string, prefixWords?: string[]): string | undefined {
  const words = typedWords(text);
  if (!words) return undefined;
  const last = words.length - 1;
  const term = (w: string, i: number) => {
    if (i !== last || !isPrefix(w)) return `"${w}"`;
    return prefixWords?.length ? `(${prefixWords.map((p) => `"${p.replaceAll('"', '""')}"`).join(' OR ')})` : `"${w}"*`;
  };
  return `{title body} : (${words.map(term).join(' AND ')})`;
}

/** The last word typed when the search takes it as a prefix: what wordsWithPrefix may name the words of. */
export function typedPrefix(text: string): string | undefined {
  const words = typedWords(text);
  const last = words?.[words.length - 1];
  return last !== undefined && isPrefix(last) ? last : undefined;
}

/** The words of what a person typed (up to 12): what both engines' queries are made of. */
function typedWords(text: string): string[] | undefined {
  const words = text.normalize('NFKC').match(/[\p{L}\p{N}]+/gu)?.slice(0, 12);
  return words && words.length > 0 ? words : undefined;
}

const isPrefix = (word: string) => [...word].length >= PREFIX_MIN;

/** The FTS5 query for `text` within one company's entries (the token of its public id is in the index's company column). */
export function companyFtsQuery(companyId: string, text: string, prefixWords?: string[]): string | undefined {
  const match = ftsQueryOf(text, prefixWords);
  return match && `company : "${companyToken(companyId)}" AND ${match}`;
}

/** PostgreSQL's twin of companyFtsQuery: the tsquery literal of the same words, the same prefix and the company (pg/search.ts). */
export function companyTsQuery(companyId: string, text: string): string | undefined {
  const words = typedWords(text);
  return words && searchQueryText(words, isPrefix(words[words.length - 1]), companyToken(companyId));
}

/**
 * The search's match for the engine at hand: FTS5's query, or PostgreSQL's tsquery
 * literal. On SQLite a last word typed as a prefix is replaced by the words it stands
 * for when naming them is cheaper than FTS5's merge of them all (search-terms.ts).
 */
export async function companySearchMatch(db: Db, companyId: string, text: string): Promise<string | undefined> {
  if (db.dialect === 'postgres') return companyTsQuery(companyId, text);
  const prefix = typedPrefix(text);
  return companyFtsQuery(companyId, text, prefix === undefined ? undefined : await wordsWithPrefix(db, prefix));
}

/** The search's query as the contract parses it, with the text (`q` or `query`) and the page size as its handler settled them. */
export type SearchQuery = Omit<ParsedInput<Operations['searchEntries']>['query'], 'q' | 'query' | 'limit'> & { q: string; limit: number };

/**
 * The SQL of a page of full-text hits: the company's hits in the index's own rowid
 * order, newest first, so the walk stops at the page's end however many there are;
 * then only the page's entries are read in full, by rowid. With filters, each hit
 * walked is checked against its entry row. `excluded`: exact-number matches already
 * on the page.
 *
 * Not ranked by relevance: bm25 needs how many documents hold each word, which FTS5
 * counts by reading the word's whole list (and the company's token is in every one
 * of its entries); a common word in half of a million entries took seconds and held
 * every other request up. Newest first costs the page, whatever the word.
 */
export function searchSql(filters: string[], excluded: number, dialect: Dialect = 'sqlite'): string {
  if (dialect === 'postgres') return searchSqlPg(filters, excluded);
  const exclude = excluded > 0 ? `AND f.rowid NOT IN (${Array(excluded).fill('?').join(', ')})` : '';
  const page = filters.length === 0
    ? `SELECT f.rowid AS seq FROM entries_fts f WHERE entries_fts MATCH ? ${exclude} ORDER BY f.rowid DESC LIMIT ? OFFSET ?`
    : `SELECT f.rowid AS seq FROM entries_fts f CROSS JOIN entries e ON e.seq = f.rowid
       WHERE entries_fts MATCH ? ${filters.map((w) => `AND ${w}`).join(' ')} ${exclude} ORDER BY f.rowid DESC LIMIT ? OFFSET ?`;
  return `WITH page AS MATERIALIZED (${page})
    SELECT ${VIEW_COLUMNS} FROM page p CROSS JOIN entries e ON e.seq = p.seq WHERE +e.company_id = ?
    ORDER BY p.seq DESC`;
}

/**
 * searchSql's twin on PostgreSQL (pg/search.ts): the same page, newest first, from the
 * tsvectors' GIN index (the company's token is one of the query's words), then the
 * page's entries by seq.
 */
function searchSqlPg(filters: string[], excluded: number): string {
  const exclude = excluded > 0 ? `AND s.seq NOT IN (${Array(excluded).fill('?').join(', ')})` : '';
  const page = filters.length === 0
    ? `SELECT s.seq FROM entries_search s WHERE s.words @@ ?::tsquery ${exclude} ORDER BY s.seq DESC LIMIT ? OFFSET ?`
    : `SELECT s.seq FROM entries_search s JOIN entries e ON e.seq = s.seq
       WHERE s.words @@ ?::tsquery ${filters.map((w) => `AND ${w}`).join(' ')} ${exclude} ORDER BY s.seq DESC LIMIT ? OFFSET ?`;
  return `WITH page AS MATERIALIZED (${page})
    SELECT ${VIEW_COLUMNS} FROM page p JOIN entries e ON e.seq = p.seq WHERE e.company_id = ?
    ORDER BY p.seq DESC`;
}

/**
 * Full-text search: entries whose number is exactly what was typed (`EXPORT-001`, as
 * code or as series-code, in the case typed or upper-cased) come before every other
 * hit, then the full-text hits, newest first. Pages are offsets into that one order;
 * the exact ones are left out of the full-text part on every page.
 */
export async function searchEntries(ctx: Ctx, q: SearchQuery): Promise<{ list: EntryView[]; q: string; limit: number; offset: number; next_offset?: number }> {
  const { db } = ctx.service;
  const plan = await searchQuery(db, ctx.caller, q);
  if (!plan) return { list: [], q: q.q, limit: q.limit, offset: q.offset };
  const rows = await db.sql<ViewRow>(plan.sql, plan.params);
  const more = rows.length > plan.ftsLimit;
  if (more) rows.pop();
  return {
    list: await entryViews(db, [...plan.exactPart, ...rows]),
    q: q.q,
    limit: q.limit,
    offset: q.offset,
    ...(more ? { next_offset: q.offset + q.limit } : {}),
  };
}

/**
 * A search's exact-number matches on the page, and the SQL and values of its
 * full-text part (one row past `ftsLimit` says there is a next page); undefined when
 * the text holds no word. Exported for the benchmark's yardstick, which runs the very
 * same statements.
 */
export async function searchQuery(
  db: Db,
  caller: Pick<Caller, 'companyKey' | 'companyId'>,
  q: SearchQuery,
): Promise<{ exactPart: ViewRow[]; ftsLimit: number; sql: string; params: unknown[] } | undefined> {
  const company = caller.companyKey;
  const match = await companySearchMatch(db, caller.companyId, q.q);
  if (!match) return undefined;
  const filters = filterSql(q, 'e', false); // a trashed entry has no search row or identity to be found by (trash.ts)
  const exact = await exactNumberMatches(db, company, q.q, filters);
  const exactPart = exact.slice(q.offset, q.offset + q.limit);
  const ftsOffset = Math.max(0, q.offset - exact.length);
  const ftsLimit = q.limit - exactPart.length;
  // Each filter is a fixed SQL fragment with a bound value: nothing from the query string enters the SQL text.
  return {
    exactPart,
    ftsLimit,
    sql: searchSql(filters.where, exact.length, db.dialect),
    params: [match, ...filters.params, ...exact.map((r) => r.seq), ftsLimit + 1, ftsOffset, company],
  };
}

const EXACT_MAX = 20;

/**
 * Entries whose document number is the text typed, as GOBL writes it: the code alone,
 * or series and code joined by a dash (`FV-2026-0001` is series FV, code 2026-0001, or
 * series FV-2026, code 0001). Each candidate is an index lookup on the identity's code: named, and
 * read before the entries (CROSS JOIN), since the identities' key leads with the company too and a
 * walk of all the company's identities or entries would otherwise be a plan SQLite may pick.
 */
async function exactNumberMatches(db: Db, company: CompanyKey, text: string, filters: { where: string[]; params: unknown[] }): Promise<Array<ViewRow & { seq: number }>> {
  const query = exactNumberQuery(company, text, filters, db.dialect);
  return query ? db.sql<ViewRow & { seq: number }>(query.sql, query.params) : [];
}

/** The SQL and values of exactNumberMatches (undefined: no number can be typed so); exported so tests can hold its plan. */
export function exactNumberQuery(
  company: string,
  text: string,
  filters: { where: string[]; params: unknown[] },
  dialect: Dialect = 'sqlite',
): { sql: string; params: unknown[] } | undefined {
  const typed = text.trim();
  if (typed === '' || typed.length > 100) return undefined;
  const candidates = new Map<string, { series: string | null; code: string }>();
  for (const variant of new Set([typed, typed.toUpperCase()])) {
    candidates.set(`|${variant}`, { series: null, code: variant });
    for (let at = variant.indexOf('-'); at > 0 && at < variant.length - 1; at = variant.indexOf('-', at + 1)) {
      candidates.set(`${variant.slice(0, at)}|${variant.slice(at + 1)}`, { series: variant.slice(0, at), code: variant.slice(at + 1) });
    }
  }
  const branches = [...candidates.values()].map((c) => (c.series === null ? 'i.code = ?' : '(i.code = ? AND i.series = ?)'));
  const values = [...candidates.values()].flatMap((c) => (c.series === null ? [c.code] : [c.code, c.series]));
  // PostgreSQL's twin names no index and fixes no join order: its planner takes the code index by itself.
  const from = dialect === 'postgres'
    ? `FROM entry_identities i JOIN entries e ON e.seq = i.seq`
    : `FROM entry_identities i INDEXED BY entry_identities_code
       CROSS JOIN entries e ON e.seq = i.seq`;
  return {
    sql: `SELECT ${VIEW_COLUMNS} ${from}
       WHERE i.company_id = ? AND (${branches.join(' OR ')}) ${filters.where.map((w) => `AND ${w}`).join(' ')}
       ORDER BY e.created_at DESC, e.seq DESC LIMIT ${EXACT_MAX}`,
    params: [company, ...values, ...filters.params],
  };
}
