// Which entries an export holds, read page by page so that an export of a whole folder never
// holds more than one page of documents in memory, in the order an accountant files them:
// by issue date, then as they arrived.
import { setImmediate as nextTurn } from 'node:timers/promises';
import { sql, type SelectQueryBuilder } from 'kysely';
import type { Ctx } from '../api/handler.ts';
import type { Tables } from '../db/tables.ts';
import type { EntryRow } from '../silo/entry-view.ts';

export interface ExportSelection {
  ids?: string[];
  folder?: string;
  state?: string;
  tag?: string;
  date_from?: string;
  date_to?: string;
}

const PAGE = 200;

type EntriesQuery<O> = SelectQueryBuilder<Tables, 'entries', O>;

/** The selection's conditions on a query over the caller's company's entries. */
function narrowed<O>(ctx: Ctx, query: EntriesQuery<O>, selection: ExportSelection): EntriesQuery<O> {
  // Entries in the trash are never exported (trash.ts).
  let q = query.where('company_id', '=', ctx.caller.companyId).where('trashed_at', 'is', null);
  // One bound JSON array instead of one parameter per id: 50,000 ids stay one statement.
  if (selection.ids) q = q.where(sql<boolean>`id IN (SELECT value FROM json_each(${JSON.stringify(selection.ids)}))`);
  if (selection.folder !== undefined) q = q.where('folder', '=', selection.folder);
  if (selection.state !== undefined) q = q.where('state', '=', selection.state);
  if (selection.tag !== undefined) q = q.where(sql<boolean>`EXISTS (SELECT 1 FROM json_each(entries.tags) WHERE value = ${selection.tag})`);
  if (selection.date_from !== undefined) q = q.where('issue_date', '>=', selection.date_from);
  if (selection.date_to !== undefined) q = q.where('issue_date', '<=', selection.date_to);
  return q;
}

/** The rows of the selection, a page at a time (the event loop breathes between pages). */
export async function* selectedEntries(ctx: Ctx, selection: ExportSelection, signal?: AbortSignal): AsyncGenerator<EntryRow> {
  const { db } = ctx.service;
  let after: { date: string; seq: number } | undefined;
  for (;;) {
    signal?.throwIfAborted();
    let query = narrowed(ctx, db.q.selectFrom('entries').selectAll(), selection);
    if (after) query = query.where(sql<boolean>`(coalesce(issue_date, ''), seq) > (${after.date}, ${after.seq})`);
    const rows = (await db.all(query.orderBy(sql`coalesce(issue_date, '')`).orderBy('seq').limit(PAGE))) as EntryRow[];
    for (const row of rows) yield row;
    if (rows.length < PAGE) return;
    const last = rows[rows.length - 1];
    after = { date: last.issue_date ?? '', seq: last.seq };
    await nextTurn();
  }
}

/** How many entries the selection holds, how many files their attachments add, and their bytes (envelopes and files). */
export async function measureSelection(ctx: Ctx, selection: ExportSelection): Promise<{ entries: number; files: number; bytes: number }> {
  const { db } = ctx.service;
  const counted = await db.first(
    narrowed(ctx, db.q.selectFrom('entries').select([sql<number>`count(*)`.as('n'), sql<number>`coalesce(sum(length(data)), 0)`.as('bytes')]), selection),
  );
  const ids = narrowed(ctx, db.q.selectFrom('entries').select('id'), selection);
  const files = await db.first(
    db.q
      .selectFrom('attachments')
      .select([sql<number>`count(*)`.as('n'), sql<number>`coalesce(sum(size), 0)`.as('bytes')])
      .where('company_id', '=', ctx.caller.companyId)
      .where('entry_id', 'in', ids),
  );
  return { entries: counted?.n ?? 0, files: files?.n ?? 0, bytes: (counted?.bytes ?? 0) + (files?.bytes ?? 0) };
}
