import { sql, type SelectQueryBuilder } from 'kysely';
import { decodeCursor, encodeCursor } from '../api/cursor.ts';
import { keysetPage } from '../api/keyset-page.ts';
import type { Ctx } from '../api/handler.ts';
import type { Tables } from '../db/tables.ts';
import { entryViews, type EntryRow, type EntryView } from './entry-view.ts';
import { requireEntryRow } from './entries.ts';

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
  return {
    list: entryViews(ctx.service.store, rows, false),
    limit: q.limit,
    ...(q.cursor ? { cursor: q.cursor } : {}),
    ...(nextCursor ? { next_cursor: nextCursor } : {}),
    ...(q.created_at ? { created_at: q.created_at } : {}),
  };
}

export function listEntries(
  ctx: Ctx,
  q: PageQuery & { folder?: string; state?: string; tag?: string; date_from?: string; date_to?: string; doc_uuid?: string },
): EntryPage {
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
  const scope = JSON.stringify(['entries', ctx.caller.companyId, q.folder, q.state, q.tag, q.date_from, q.date_to, q.doc_uuid, q.ascending, q.created_at]);
  return { ...page(ctx, scope, base, q), ...(q.folder !== undefined ? { folder: q.folder } : {}) };
}

/**
 * Entries whose document mentions this entry: by default its id (head.uuid) and
 * its document's own uuid, which is what a credit note's `preceding[].uuid` holds.
 * The page is read from the mention index (keyset on its created_at, entry_id),
 * then the entries are fetched by id: no scan of the company's entries.
 */
export function listRelated(ctx: Ctx, id: string, q: PageQuery & { uuid?: string; context?: string }): EntryPage {
  const { store, cursorSecret } = ctx.service;
  const entry = requireEntryRow(ctx, id);
  const uuids = q.uuid ? [q.uuid] : [entry.id, ...(entry.doc_uuid ? [entry.doc_uuid] : [])];
  const scope = JSON.stringify(['related', ctx.caller.companyId, uuids, q.context, q.ascending, q.created_at]);
  const dir = q.ascending ? 'asc' : 'desc';

  let mentions = store.q
    .selectFrom('mentions')
    .select(['entry_id', 'created_at', (eb) => eb.fn.min('context').as('context')])
    .where('company_id', '=', ctx.caller.companyId)
    .where('uuid', 'in', uuids)
    .where('entry_id', '!=', entry.id);
  if (q.context !== undefined) mentions = mentions.where('context', '=', q.context);
  if (q.created_at) mentions = mentions.where('created_at', q.ascending ? '>=' : '<=', new Date(q.created_at).toISOString());
  if (q.cursor) {
    const pos = decodeCursor(cursorSecret, scope, q.cursor);
    mentions = mentions.where((eb) => eb(eb.refTuple('created_at', 'entry_id'), q.ascending ? '>' : '<', eb.tuple(pos.at, pos.id)));
  }
  const hits = store.all(
    mentions.groupBy(['entry_id', 'created_at']).orderBy('created_at', dir).orderBy('entry_id', dir).limit(q.limit + 1),
  );
  const more = hits.length > q.limit;
  if (more) hits.pop();

  const rows = hits.length
    ? store.all(
        store.q
          .selectFrom('entries')
          .selectAll()
          .where('company_id', '=', ctx.caller.companyId)
          .where('id', 'in', hits.map((h) => h.entry_id)),
      )
    : [];
  const byId = new Map(rows.map((r) => [r.id, r]));
  const ordered = hits.map((h) => byId.get(h.entry_id)).filter((r): r is EntryRow => r !== undefined);
  const contexts = new Map(hits.map((h) => [h.entry_id, String(h.context)]));
  const last = hits[hits.length - 1];
  return {
    list: entryViews(store, ordered, false, contexts),
    limit: q.limit,
    ...(q.cursor ? { cursor: q.cursor } : {}),
    ...(more && last ? { next_cursor: encodeCursor(cursorSecret, scope, { at: last.created_at, id: last.entry_id }) } : {}),
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
