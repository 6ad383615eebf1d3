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
// octet_length: the stored bytes (length() counts characters, reading each value whole).
const ENTRY_BYTES_SQLITE = sql<number>`coalesce(sum(octet_length(data)), 0)`;
const ENTRY_BYTES_PG = sql<number>`coalesce(sum(octet_length(data)), 0)::bigint`;
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

/**
 * The rows of the selection, a page at a time (the event loop breathes between pages): the
 * entries without an issue date first, then by date, then as they arrived (created_at, id).
 * That is the order of the list's issue-date index (company, issue_date, created_at, id), so
 * a page is a walk along it from where the last one ended. Ordered by an expression no index
 * holds, every page sorted the whole selection again: 3 s a page at a million entries.
 */
export async function* selectedEntries(ctx: Ctx, selection: ExportSelection, signal?: AbortSignal): AsyncGenerator<EntryRow> {
  if (selection.ids) yield* selectedByIds(ctx, selection, selection.ids, signal);
  else yield* selectedByIndex(ctx, selection, signal);
}

export type Position = { issue_date: string | null; created_at: string; id: string };

async function* selectedByIndex(ctx: Ctx, selection: ExportSelection, signal?: AbortSignal): AsyncGenerator<EntryRow> {
  // The undated ones and the dated ones are two runs of the index: PostgreSQL puts NULL last, SQLite first.
  for (const dated of [false, true]) {
    let after: Position | undefined;
    for (;;) {
      signal?.throwIfAborted();
      const rows = (await ctx.service.db.all(indexPageQuery(ctx, selection, dated, after))) as EntryRow[];
      for (const row of rows) yield row;
      if (rows.length < PAGE) break;
      after = rows[rows.length - 1];
      await letOthersIn();
    }
  }
}

/** One page of selectedEntries' walk along the issue-date index: of the undated entries or the dated ones, after `after`. */
export function indexPageQuery(ctx: Ctx, selection: ExportSelection, dated: boolean, after?: Position) {
  let query = narrowed(ctx, ctx.service.db.q.selectFrom('entries').selectAll(), selection).where('issue_date', dated ? 'is not' : 'is', null);
  if (after) {
    query = query.where(dated
      ? sql<boolean>`(issue_date, created_at, id) > (${after.issue_date}, ${after.created_at}, ${after.id})`
      : sql<boolean>`(created_at, id) > (${after.created_at}, ${after.id})`);
  }
  return query.orderBy('issue_date').orderBy('created_at').orderBy('id').limit(PAGE);
}

/** Ids whose sort keys are read in one statement. */
const ID_CHUNK = 2_000;

/**
 * A selection by ids (up to 50,000): their sort keys read a chunk at a time and put in the
 * index's order here, then the rows read a page at a time by seq. A walk along the index
 * would cross the whole company for a few ids.
 */
async function* selectedByIds(ctx: Ctx, selection: ExportSelection, ids: string[], signal?: AbortSignal): AsyncGenerator<EntryRow> {
  const { db } = ctx.service;
  const pg = db.dialect === 'postgres';
  const unique = [...new Set(ids)];
  const keys: (Position & { seq: number })[] = [];
  for (let i = 0; i < unique.length; i += ID_CHUNK) {
    signal?.throwIfAborted();
    const chunk = { ...selection, ids: unique.slice(i, i + ID_CHUNK) };
    keys.push(...(await db.all(narrowed(ctx, db.q.selectFrom('entries').select(['seq', 'issue_date', 'created_at', 'id']), chunk))));
    await letOthersIn();
  }
  keys.sort(byIssueDate);
  const rest = { ...selection, ids: undefined };
  for (let i = 0; i < keys.length; i += PAGE) {
    signal?.throwIfAborted();
    const seqs = keys.slice(i, i + PAGE).map((k) => Number(k.seq));
    // Read again under the selection's conditions: one trashed or changed since is left out.
    const rows = (await db.all(narrowed(ctx, db.q.selectFrom('entries').selectAll(), rest).where(pg ? seqsInPg(seqs) : seqsInSqlite(seqs)))) as EntryRow[];
    const bySeq = new Map(rows.map((r) => [Number(r.seq), r]));
    for (const seq of seqs) {
      const row = bySeq.get(seq);
      if (row) yield row;
    }
    await letOthersIn();
  }
}

const seqsInSqlite = (seqs: number[]) => sql<boolean>`seq IN (SELECT value FROM json_each(${JSON.stringify(seqs)}))`;
const seqsInPg = (seqs: number[]) => sql<boolean>`seq IN (SELECT value::bigint FROM jsonb_array_elements_text(${JSON.stringify(seqs)}::jsonb) AS value)`;

/** The index's order: no issue date first, then by date, created_at and id (plain string order, as both engines compare them). */
function byIssueDate(a: Position, b: Position): number {
  if (a.issue_date !== b.issue_date) {
    if (a.issue_date === null) return -1;
    if (b.issue_date === null) return 1;
    return a.issue_date < b.issue_date ? -1 : 1;
  }
  if (a.created_at !== b.created_at) return a.created_at < b.created_at ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/**
 * How many entries the selection holds, how many files their attachments add, and their
 * bytes (envelopes and files). Past `upTo` entries it stops counting and measures nothing
 * more (`entries` is then upTo + 1): a ZIP refuses such a selection anyway, and summing a
 * million envelopes and their files took 10 s.
 */
export async function measureSelection(ctx: Ctx, selection: ExportSelection, upTo = Number.MAX_SAFE_INTEGER): Promise<{ entries: number; files: number; bytes: number }> {
  const { db } = ctx.service;
  const pg = db.dialect === 'postgres';
  const capped = narrowed(ctx, db.q.selectFrom('entries').select('seq'), selection).limit(Math.min(upTo + 1, Number.MAX_SAFE_INTEGER));
  const entries = Number((await db.first(db.q.selectFrom(capped.as('s')).select(sql<number>`count(*)`.as('n'))))?.n ?? 0);
  if (entries > upTo) return { entries, files: 0, bytes: 0 };
  const counted = await db.first(narrowed(ctx, db.q.selectFrom('entries').select((pg ? ENTRY_BYTES_PG : ENTRY_BYTES_SQLITE).as('bytes')), selection));
  const ids = narrowed(ctx, db.q.selectFrom('entries').select('id'), selection);
  const files = await db.first(
    db.q
      .selectFrom('attachments')
      .select([sql<number>`count(*)`.as('n'), (pg ? FILE_BYTES_PG : FILE_BYTES_SQLITE).as('bytes')])
      .where('company_id', '=', ctx.caller.companyId)
      .where('entry_id', 'in', ids),
  );
  return { entries, files: files?.n ?? 0, bytes: (counted?.bytes ?? 0) + (files?.bytes ?? 0) };
}
