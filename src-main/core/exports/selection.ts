// Which entries an export holds, read page by page so that an export of a whole folder never
// holds more than one page of documents in memory, in the order an accountant files them:
// by issue date, then as they arrived.
import { sql, type SelectQueryBuilder } from 'kysely';
import type { Ctx } from '../api/handler.ts';
import type { Tables } from '../db/tables.ts';
import type { EntryRow } from '../silo/entry-view.ts';
import { letOthersIn } from '../let-others-in.ts';

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

// One bound JSON array instead of one parameter per id: 50,000 ids stay one statement. Twins by engine.
const idsInSqlite = (ids: string[]) => sql<boolean>`id IN (SELECT value FROM json_each(${JSON.stringify(ids)}))`;
const idsInPg = (ids: string[]) => sql<boolean>`id IN (SELECT value FROM jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb) AS value)`;
// `tags` holds a JSON array (text on both engines).
const taggedSqlite = (tag: string) => sql<boolean>`EXISTS (SELECT 1 FROM json_each(entries.tags) WHERE value = ${tag})`;
const taggedPg = (tag: string) => sql<boolean>`EXISTS (SELECT 1 FROM jsonb_array_elements_text(entries.tags::jsonb) AS value WHERE value = ${tag})`;
// Byte sums: PostgreSQL's sum() of bigint is numeric, text to the client; cast back so the sizes add up as numbers.
const ENTRY_BYTES_SQLITE = sql<number>`coalesce(sum(length(data)), 0)`;
const ENTRY_BYTES_PG = sql<number>`coalesce(sum(length(data)), 0)::bigint`;
const FILE_BYTES_SQLITE = sql<number>`coalesce(sum(size), 0)`;
const FILE_BYTES_PG = sql<number>`coalesce(sum(size), 0)::bigint`;

/** The selection's conditions on a query over the caller's company's entries. */
function narrowed<O>(ctx: Ctx, query: EntriesQuery<O>, selection: ExportSelection): EntriesQuery<O> {
  const pg = ctx.service.db.dialect === 'postgres';
  // Entries in the trash are never exported (trash.ts).
  let q = query.where('company_id', '=', ctx.caller.companyId).where('trashed_at', 'is', null);
  if (selection.ids) q = q.where(pg ? idsInPg(selection.ids) : idsInSqlite(selection.ids));
  if (selection.folder !== undefined) q = q.where('folder', '=', selection.folder);
  if (selection.state !== undefined) q = q.where('state', '=', selection.state);
  if (selection.tag !== undefined) q = q.where(pg ? taggedPg(selection.tag) : taggedSqlite(selection.tag));
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
    await letOthersIn();
  }
}

/** How many entries the selection holds, how many files their attachments add, and their bytes (envelopes and files). */
export async function measureSelection(ctx: Ctx, selection: ExportSelection): Promise<{ entries: number; files: number; bytes: number }> {
  const { db } = ctx.service;
  const pg = db.dialect === 'postgres';
  const counted = await db.first(
    narrowed(ctx, db.q.selectFrom('entries').select([sql<number>`count(*)`.as('n'), (pg ? ENTRY_BYTES_PG : ENTRY_BYTES_SQLITE).as('bytes')]), selection),
  );
  const ids = narrowed(ctx, db.q.selectFrom('entries').select('id'), selection);
  const files = await db.first(
    db.q
      .selectFrom('attachments')
      .select([sql<number>`count(*)`.as('n'), (pg ? FILE_BYTES_PG : FILE_BYTES_SQLITE).as('bytes')])
      .where('company_id', '=', ctx.caller.companyId)
      .where('entry_id', 'in', ids),
  );
  return { entries: counted?.n ?? 0, files: files?.n ?? 0, bytes: (counted?.bytes ?? 0) + (files?.bytes ?? 0) };
}
