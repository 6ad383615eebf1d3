import type { Operations } from '../api/contract/index.ts';
import type { KeyValue } from '../api/cursor.ts';
import { afterPosition, keysetPage, type KeyShape } from '../api/keyset-page.ts';
import { notFound } from '../api/errors.ts';
import type { Ctx } from '../api/handler.ts';
import type { ParsedInput } from '../api/operation.ts';
import type { Db, Dialect } from '../db/engine.ts';
import { entryViews, VIEW_COLUMNS, type EntryView, type ViewRow } from './entry-view.ts';
import { DRIVER_INDEX, entrySource, type Walk } from './filter-plan.ts';
import { sortedPage } from './sorted-page.ts';

export interface PageQuery {
  created_at?: string;
  cursor?: string;
  limit: number;
  ascending: boolean;
}

export interface EntryPage {
  list: EntryView[];
  limit: number;
  cursor?: string;
  next_cursor?: string;
  folder?: string;
  created_at?: string;
}

async function pageOf(ctx: Ctx, rows: ViewRow[], nextCursor: string | undefined, q: PageQuery, contexts?: Map<string, string>): Promise<Omit<EntryPage, 'folder'>> {
  return {
    list: await entryViews(ctx.service.db, rows, false, contexts),
    limit: q.limit,
    ...(q.cursor ? { cursor: q.cursor } : {}),
    ...(nextCursor ? { next_cursor: nextCursor } : {}),
    ...(q.created_at ? { created_at: q.created_at } : {}),
  };
}

/** A page over (created_at, seq) of `e` (created-ties.ts): the position of a row, and what a cursor's position must be. */
const CREATED_AT_KEY = (row: ViewRow): KeyValue[] => [row.created_at, row.seq];
const CREATED_AT_SHAPE: readonly KeyShape[] = ['string', 'int'];

/** The conditions of a page over (created_at, seq) of `e`: the created_at bound and the position to start after. */
function createdAtWhere(q: Pick<PageQuery, 'created_at' | 'ascending'>, after: KeyValue[] | undefined, where: string[], params: unknown[]): void {
  if (q.created_at) {
    where.push(`e.created_at ${q.ascending ? '>=' : '<='} ?`);
    params.push(new Date(q.created_at).toISOString());
  }
  if (after) {
    where.push(afterPosition(['e.created_at', 'e.seq'], q.ascending));
    params.push(...after);
  }
}

/** The list's query as the contract parses it (the filters, `sort` and the page), with the page size its handler checked. */
export type ListQuery = Omit<ParsedInput<Operations['listEntries']>['query'], 'limit'> & { limit: number };

/** The related list's query as the contract parses it, with the page size its handler checked. */
export type RelatedQuery = Omit<ParsedInput<Operations['listRelated']>['query'], 'limit'> & { limit: number };

/**
 * The company's entries, filtered, newest first or ordered by a column, a keyset page
 * at a time. The cursor is bound to the filters and the order it was made for. Rows
 * are read without their documents (a list shows none) with one prepared statement
 * per shape of query.
 */
export async function listEntries(ctx: Ctx, q: ListQuery): Promise<EntryPage> {
  const sort = q.sort ?? 'created_at';
  const scope = JSON.stringify(['entries', ctx.caller.companyKey, q.folder, q.state, q.tag, q.date_from, q.date_to, q.doc_uuid, q.ascending, q.created_at, sort]);
  const folder = q.folder !== undefined ? { folder: q.folder } : {};
  if (sort !== 'created_at') {
    const { rows, nextCursor } = await sortedPage(ctx, scope, q, { sort, ascending: q.ascending, limit: q.limit, cursor: q.cursor, created_at: q.created_at });
    return { ...(await pageOf(ctx, rows, nextCursor, q)), ...folder };
  }
  const dir = q.ascending ? 'ASC' : 'DESC';
  // Newest first along the company's index, or a folder's or state's (each ordered by created_at too), or from the narrowest filter's rows.
  const walks: Walk[] = [
    { index: 'entries_company_created' },
    ...(q.folder !== undefined ? [{ index: DRIVER_INDEX.folder, within: 'folder' as const }] : []),
    ...(q.state !== undefined ? [{ index: DRIVER_INDEX.state, within: 'state' as const }] : []),
  ];
  const source = await entrySource(ctx.service.db, ctx.caller.companyKey, q, walks, q.limit + 1);
  const page = await keysetPage({
    secret: ctx.service.cursorSecret,
    scope,
    cursor: q.cursor,
    limit: q.limit,
    shape: CREATED_AT_SHAPE,
    key: CREATED_AT_KEY,
    fetch(after, take) {
      const where = [...source.where];
      const params: unknown[] = [...source.params];
      createdAtWhere(q, after, where, params);
      return ctx.service.db.sql<ViewRow>(
        `SELECT ${VIEW_COLUMNS} FROM ${source.from} WHERE ${where.join(' AND ')} ORDER BY e.created_at ${dir}, e.seq ${dir} LIMIT ?`,
        [...params, take],
      );
    },
  });
  return { ...(await pageOf(ctx, page.rows, page.nextCursor, q)), ...folder };
}

// Every branch names the company: an entry id is only unique within its company (issue 12).
const ENTRY_OF_COMPANY = 'SELECT seq, id, doc_uuid FROM entries WHERE company_id = ? AND id = ?';
const IDENTITY_OF = 'SELECT type, series, code, issue_date FROM entry_identities WHERE seq = ?';

/** The entries naming this one by uuid (its id or its document's uuid). */
const MENTIONING = 'SELECT entry_id, context FROM mentions WHERE company_id = ? AND uuid IN (?, ?)';
const MENTIONING_UUID = 'SELECT entry_id, context FROM mentions WHERE company_id = ? AND uuid = ?';
/*
 * Every key of these tables leads with the company now (issue 12), so SQLite could answer "the
 * company's rows" from a primary key and then filter: a walk of all of them. Each branch names the
 * index that goes straight to its rows (INDEXED BY a code index; `+` on a uuid term keeps the uuid
 * index out of the way of the (company, entry) key); test/api/perf-plans.test.ts holds the plans.
 */
/** The entries naming this one by code; a reference's series, date and type narrow the match only when it states them. */
const NAMING_BY_CODE = `SELECT entry_id, context FROM entry_refs INDEXED BY entry_refs_code WHERE company_id = ? AND code = ?
  AND (series IS NULL OR series = ?) AND (issue_date IS NULL OR issue_date = ?) AND (type IS NULL OR type = ?)`;
/** The entries this one names by their document's uuid, or by their entry id. */
const NAMED_BY_UUID = `SELECT n.id, r.context FROM entry_refs r
  CROSS JOIN entries n ON n.company_id = r.company_id AND n.doc_uuid = r.uuid WHERE r.company_id = ? AND r.entry_id = ? AND +r.uuid IS NOT NULL`;
const NAMED_BY_ID = `SELECT n.id, r.context FROM entry_refs r
  CROSS JOIN entries n ON n.company_id = r.company_id AND n.id = r.uuid WHERE r.company_id = ? AND r.entry_id = ? AND +r.uuid IS NOT NULL`;
/** The entries this one names by code (with the series, date and type the reference states). */
const NAMED_BY_CODE = `SELECT n.id, r.context FROM entry_refs r
  CROSS JOIN entry_identities i INDEXED BY entry_identities_code ON i.company_id = r.company_id AND i.code = r.code
    AND (r.series IS NULL OR i.series = r.series) AND (r.issue_date IS NULL OR i.issue_date = r.issue_date)
    AND (r.type IS NULL OR i.type = r.type)
  CROSS JOIN entries n ON n.seq = i.seq
  WHERE r.company_id = ? AND r.entry_id = ? AND +r.code IS NOT NULL`;

/*
 * The twins of the branches above on PostgreSQL: the same rows, with no index named and no
 * join order fixed (PostgreSQL has neither INDEXED BY nor unary `+` on text; its planner
 * takes the code and uuid indexes by itself).
 */
const NAMING_BY_CODE_PG = `SELECT entry_id, context FROM entry_refs WHERE company_id = ? AND code = ?
  AND (series IS NULL OR series = ?) AND (issue_date IS NULL OR issue_date = ?) AND (type IS NULL OR type = ?)`;
const NAMED_BY_UUID_PG = `SELECT n.id, r.context FROM entry_refs r
  JOIN entries n ON n.company_id = r.company_id AND n.doc_uuid = r.uuid WHERE r.company_id = ? AND r.entry_id = ? AND r.uuid IS NOT NULL`;
const NAMED_BY_ID_PG = `SELECT n.id, r.context FROM entry_refs r
  JOIN entries n ON n.company_id = r.company_id AND n.id = r.uuid WHERE r.company_id = ? AND r.entry_id = ? AND r.uuid IS NOT NULL`;
const NAMED_BY_CODE_PG = `SELECT n.id, r.context FROM entry_refs r
  JOIN entry_identities i ON i.company_id = r.company_id AND i.code = r.code
    AND (r.series IS NULL OR i.series = r.series) AND (r.issue_date IS NULL OR i.issue_date = r.issue_date)
    AND (r.type IS NULL OR i.type = r.type)
  JOIN entries n ON n.seq = i.seq
  WHERE r.company_id = ? AND r.entry_id = ? AND r.code IS NOT NULL`;

const BRANCHES: Record<Dialect, { namingByCode: string; namedByUuid: string; namedById: string; namedByCode: string }> = {
  sqlite: { namingByCode: NAMING_BY_CODE, namedByUuid: NAMED_BY_UUID, namedById: NAMED_BY_ID, namedByCode: NAMED_BY_CODE },
  postgres: { namingByCode: NAMING_BY_CODE_PG, namedByUuid: NAMED_BY_UUID_PG, namedById: NAMED_BY_ID_PG, namedByCode: NAMED_BY_CODE_PG },
};

/**
 * The related entries' SQL. The hits are collected first (MATERIALIZED) and the
 * entries are then looked up by (company, id), in that order (CROSS JOIN fixes it):
 * whatever SQLite's statistics say, the work grows with the entry's relations and
 * never with the company's entries. (Left to choose, SQLite once walked every entry
 * of the company through the digest index and probed the hits for each;
 * test/api/perf-plans.test.ts holds the plan.)
 */
export function relatedSql(branches: string[], where: string[], ascending: boolean, dialect: Dialect = 'sqlite'): string {
  const dir = ascending ? 'ASC' : 'DESC';
  // PostgreSQL's twin: a plain join, grouped by the entry's key (seq), which every selected column of e hangs on.
  if (dialect === 'postgres') {
    return `WITH hits(entry_id, context) AS MATERIALIZED (${branches.join(' UNION ALL ')})
    SELECT ${VIEW_COLUMNS}, min(h.context) AS related_context FROM hits h JOIN entries e ON e.company_id = ? AND e.id = h.entry_id
    WHERE ${where.join(' AND ')}
    GROUP BY e.seq ORDER BY e.created_at ${dir}, e.seq ${dir} LIMIT ?`;
  }
  return `WITH hits(entry_id, context) AS MATERIALIZED (${branches.join(' UNION ALL ')})
    SELECT ${VIEW_COLUMNS}, min(h.context) AS related_context FROM hits h CROSS JOIN entries e ON e.company_id = ? AND e.id = h.entry_id
    WHERE ${where.join(' AND ')}
    GROUP BY e.seq ORDER BY e.created_at ${dir}, e.seq ${dir} LIMIT ?`;
}

/**
 * Entries related to this one, both ways: those whose document names it (by its
 * uuid anywhere, as a credit note's `preceding[].uuid`, or by its code with the
 * series and issue date they give) and those its own document references
 * (`preceding`, a payment's `lines[].document`, `ordering`…), by uuid or code.
 * Only the company's entries; `context` is where the reference sits. Every branch
 * is an index lookup (mentions by uuid, references and identities by code, entries
 * by id or document uuid); the page is a keyset on the related entry's
 * (created_at, seq). With `uuid`, only entries mentioning that uuid.
 */
export async function listRelated(ctx: Ctx, id: string, q: RelatedQuery): Promise<EntryPage> {
  const { db, cursorSecret } = ctx.service;
  if (!(await db.sqlFirst(ENTRY_OF_COMPANY, [ctx.caller.companyKey, id]))) throw notFound(`entry ${id}`);
  const page = await keysetPage<ViewRow & { related_context: string }>({
    secret: cursorSecret,
    scope: JSON.stringify(['related', ctx.caller.companyKey, id, q.uuid, q.context, q.ascending, q.created_at]),
    cursor: q.cursor,
    limit: q.limit,
    shape: CREATED_AT_SHAPE,
    key: CREATED_AT_KEY,
    async fetch(after, take) {
      const query = (await relatedQuery(db, ctx.caller.companyKey, id, { ...q, limit: take }, after))!;
      return db.sql<ViewRow & { related_context: string }>(query.sql, query.params);
    },
  });
  const contexts = new Map(page.rows.map((r) => [r.id, String(r.related_context)]));
  return pageOf(ctx, page.rows.map(({ related_context: _c, ...row }) => row), page.nextCursor, q, contexts);
}

/**
 * The SQL and values of up to `limit` entries related to `id` after a position of the
 * list (undefined: no such entry in the company). Exported for the benchmark's
 * yardstick, which runs the very same statement.
 */
export async function relatedQuery(
  db: Db,
  company: string,
  id: string,
  q: Omit<RelatedQuery, 'limit' | 'cursor'> & { limit: number },
  after?: KeyValue[],
): Promise<{ sql: string; params: unknown[] } | undefined> {
  const entry = await db.sqlFirst<{ seq: number; id: string; doc_uuid: string | null }>(ENTRY_OF_COMPANY, [company, id]);
  if (!entry) return undefined;

  const branch = BRANCHES[db.dialect];
  const branches: string[] = [];
  const params: unknown[] = [];
  if (q.uuid !== undefined) {
    branches.push(MENTIONING_UUID);
    params.push(company, q.uuid);
  } else {
    branches.push(MENTIONING);
    params.push(company, entry.id, entry.doc_uuid ?? entry.id);
    const me = await db.sqlFirst<{ type: string | null; series: string | null; code: string | null; issue_date: string | null }>(IDENTITY_OF, [entry.seq]);
    if (me?.code) {
      branches.push(branch.namingByCode);
      params.push(company, me.code, me.series, me.issue_date, me.type);
    }
    branches.push(branch.namedByUuid, branch.namedById, branch.namedByCode);
    params.push(company, id, company, id, company, id);
  }

  // The join's company (each hit is looked up by company and id, the unique key), then the conditions.
  params.push(company);
  const where: string[] = ['e.id <> ?', 'e.trashed_at IS NULL'];
  params.push(id);
  if (q.context !== undefined) {
    where.push('h.context = ?');
    params.push(q.context);
  }
  createdAtWhere(q, after, where, params);
  params.push(q.limit);
  return { sql: relatedSql(branches, where, q.ascending, db.dialect), params };
}

/** Kept by triggers as entries come, go and move (scale-migration.ts): a few rows, never a count of every entry. */
const FOLDER_COUNTS = 'SELECT folder, count FROM entry_folder_counts WHERE company_id = ? AND count > 0 ORDER BY folder';
const TAG_COUNTS = 'SELECT tag, count FROM entry_tag_counts WHERE company_id = ? AND count > 0 ORDER BY count DESC, tag';

export async function listFolders(ctx: Ctx): Promise<{ list: Array<{ folder: string; count: number }> }> {
  return { list: await ctx.service.db.sql<{ folder: string; count: number }>(FOLDER_COUNTS, [ctx.caller.companyKey]) };
}

export async function listTags(ctx: Ctx): Promise<{ list: Array<{ tag: string; count: number }> }> {
  return { list: await ctx.service.db.sql<{ tag: string; count: number }>(TAG_COUNTS, [ctx.caller.companyKey]) };
}
