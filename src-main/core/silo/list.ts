import { sql, type SelectQueryBuilder } from 'kysely';
import type { EntrySort } from '../api/contract/silo.ts';
import { decodeCursor, encodeCursor } from '../api/cursor.ts';
import { keysetPage } from '../api/keyset-page.ts';
import type { Ctx } from '../api/handler.ts';
import type { Tables } from '../db/tables.ts';
import { entryViews, type EntryRow, type EntryView } from './entry-view.ts';
import { requireEntryRow } from './entries.ts';
import type { EntryFilter } from './entry-filters.ts';
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

type EntryQuery = SelectQueryBuilder<Tables, 'entries', EntryRow>;

function page(ctx: Ctx, scope: string, base: EntryQuery, q: PageQuery): Omit<EntryPage, 'folder'> {
  const { rows, nextCursor } = keysetPage(ctx.service, scope, base, q);
  return pageOf(ctx, rows, nextCursor, q);
}

function pageOf(ctx: Ctx, rows: EntryRow[], nextCursor: string | undefined, q: PageQuery): Omit<EntryPage, 'folder'> {
  return {
    list: entryViews(ctx.service.store, rows, false),
    limit: q.limit,
    ...(q.cursor ? { cursor: q.cursor } : {}),
    ...(nextCursor ? { next_cursor: nextCursor } : {}),
    ...(q.created_at ? { created_at: q.created_at } : {}),
  };
}

export interface ListQuery extends PageQuery, EntryFilter {
  /** the column to order by (created_at unless said); see sorted-page.ts */
  sort?: EntrySort;
}

/**
 * The company's entries, filtered, newest first or ordered by a column, a keyset page
 * at a time. The cursor is bound to the filters and the order it was made for.
 */
export function listEntries(ctx: Ctx, q: ListQuery): EntryPage {
  const sort = q.sort ?? 'created_at';
  const scope = JSON.stringify(['entries', ctx.caller.companyId, q.folder, q.state, q.tag, q.date_from, q.date_to, q.doc_uuid, q.ascending, q.created_at, sort]);
  const folder = q.folder !== undefined ? { folder: q.folder } : {};
  if (sort !== 'created_at') {
    const { rows, nextCursor } = sortedPage(ctx, scope, q, { sort, ascending: q.ascending, limit: q.limit, cursor: q.cursor, created_at: q.created_at });
    return { ...pageOf(ctx, rows, nextCursor, q), ...folder };
  }
  const { store } = ctx.service;
  let base = store.q.selectFrom('entries').selectAll('entries').where('entries.company_id', '=', ctx.caller.companyId);
  if (q.folder !== undefined) base = base.where('entries.folder', '=', q.folder);
  if (q.state !== undefined) base = base.where('entries.state', '=', q.state);
  if (q.tag !== undefined) {
    const tag = q.tag;
    base = base.where(sql<boolean>`EXISTS (SELECT 1 FROM json_each(entries.tags) WHERE json_each.value = ${tag})`);
  }
  if (q.date_from !== undefined) base = base.where('entries.issue_date', '>=', q.date_from);
  if (q.date_to !== undefined) base = base.where('entries.issue_date', '<=', q.date_to);
  if (q.doc_uuid !== undefined) base = base.where('entries.doc_uuid', '=', q.doc_uuid);
  return { ...page(ctx, scope, base, q), ...folder };
}

/**
 * Entries related to this one, both ways: those whose document names it (by its
 * uuid anywhere, as a credit note's `preceding[].uuid`, or by its code with the
 * series and issue date they give) and those its own document references
 * (`preceding`, a payment's `lines[].document`, `ordering`…), by uuid or code.
 * Only the company's entries; `context` is where the reference sits. Every branch
 * is an index lookup (mentions by uuid, references and identities by code or uuid),
 * so the work grows with the entry's relations, never with the company's entries;
 * the page is a keyset on the related entry's (created_at, id). With `uuid`, only
 * entries mentioning that uuid.
 */
export function listRelated(ctx: Ctx, id: string, q: PageQuery & { uuid?: string; context?: string }): EntryPage {
  const { store, cursorSecret } = ctx.service;
  const entry = requireEntryRow(ctx, id);
  const company = ctx.caller.companyId;
  const scope = JSON.stringify(['related', company, id, q.uuid, q.context, q.ascending, q.created_at]);
  const dir = q.ascending ? 'ASC' : 'DESC';

  const branches: string[] = [];
  const params: unknown[] = [];
  const branch = (sqlText: string, ...values: unknown[]) => {
    branches.push(sqlText);
    params.push(...values);
  };
  if (q.uuid !== undefined) {
    branch('SELECT entry_id, context FROM mentions WHERE company_id = ? AND uuid = ?', company, q.uuid);
  } else {
    branch('SELECT entry_id, context FROM mentions WHERE company_id = ? AND uuid IN (?, ?)', company, entry.id, entry.doc_uuid ?? entry.id);
    const me = store.first(store.q.selectFrom('entry_identities').selectAll().where('entry_id', '=', id));
    if (me?.code) {
      // A reference's series, date and type narrow the match only when it states them.
      branch(
        `SELECT entry_id, context FROM entry_refs WHERE company_id = ? AND code = ?
           AND (series IS NULL OR series = ?) AND (issue_date IS NULL OR issue_date = ?) AND (type IS NULL OR type = ?)`,
        company, me.code, me.series, me.issue_date, me.type,
      );
    }
    branch(
      `SELECT i.entry_id, r.context FROM entry_refs r
         JOIN entry_identities i ON i.company_id = r.company_id AND i.uuid = r.uuid
       WHERE r.entry_id = ? AND r.uuid IS NOT NULL`,
      id,
    );
    branch(
      `SELECT e.id, r.context FROM entry_refs r JOIN entries e ON e.id = r.uuid AND e.company_id = r.company_id
       WHERE r.entry_id = ? AND r.uuid IS NOT NULL`,
      id,
    );
    branch(
      `SELECT i.entry_id, r.context FROM entry_refs r
         JOIN entry_identities i ON i.company_id = r.company_id AND i.code = r.code
           AND (r.series IS NULL OR i.series = r.series) AND (r.issue_date IS NULL OR i.issue_date = r.issue_date)
           AND (r.type IS NULL OR i.type = r.type)
       WHERE r.entry_id = ? AND r.code IS NOT NULL`,
      id,
    );
  }

  const where: string[] = ['e.company_id = ?', 'e.id <> ?'];
  const whereParams: unknown[] = [company, id];
  if (q.context !== undefined) {
    where.push('h.context = ?');
    whereParams.push(q.context);
  }
  if (q.created_at) {
    where.push(`e.created_at ${q.ascending ? '>=' : '<='} ?`);
    whereParams.push(new Date(q.created_at).toISOString());
  }
  if (q.cursor) {
    const pos = decodeCursor(cursorSecret, scope, q.cursor);
    where.push(`(e.created_at, e.id) ${q.ascending ? '>' : '<'} (?, ?)`);
    whereParams.push(pos.at, pos.id);
  }
  // Every piece of SQL text is fixed here; all values are bound.
  const rows = store
    .statement(
      `WITH hits(entry_id, context) AS (${branches.join(' UNION ALL ')})
       SELECT e.*, min(h.context) AS related_context FROM hits h JOIN entries e ON e.id = h.entry_id
       WHERE ${where.join(' AND ')}
       GROUP BY e.id ORDER BY e.created_at ${dir}, e.id ${dir} LIMIT ?`,
    )
    .all(...params, ...whereParams, q.limit + 1) as Array<EntryRow & { related_context: string }>;
  const more = rows.length > q.limit;
  if (more) rows.pop();
  const contexts = new Map(rows.map((r) => [r.id, String(r.related_context)]));
  const last = rows[rows.length - 1];
  return {
    list: entryViews(store, rows.map(({ related_context: _c, ...row }) => row), false, contexts),
    limit: q.limit,
    ...(q.cursor ? { cursor: q.cursor } : {}),
    ...(more && last ? { next_cursor: encodeCursor(cursorSecret, scope, { at: last.created_at, id: last.id }) } : {}),
    ...(q.created_at ? { created_at: q.created_at } : {}),
  };
}

export function listFolders(ctx: Ctx): { list: Array<{ folder: string; count: number }> } {
  const { store } = ctx.service;
  const list = store.all(
    store.q
      .selectFrom('entries')
      .select(['folder', (eb) => eb.fn.countAll<number>().as('count')])
      .where('company_id', '=', ctx.caller.companyId)
      .groupBy('folder')
      .orderBy('folder'),
  );
  return { list };
}

export function listTags(ctx: Ctx): { list: Array<{ tag: string; count: number }> } {
  const rows = ctx.service.store
    .statement(
      `SELECT json_each.value AS tag, count(*) AS count FROM entries, json_each(entries.tags)
       WHERE entries.company_id = ? GROUP BY json_each.value ORDER BY count DESC, tag`,
    )
    .all(ctx.caller.companyId) as Array<{ tag: string; count: number }>;
  return { list: rows };
}
