// Which entries an export holds, read page by page so that an export of a whole folder never
// holds more than one page of documents in memory, in the order an accountant files them:
// by issue date, then as they arrived.
import type { Ctx } from '../api/handler.ts';
import type { EntryRow } from '../silo/entry-view.ts';
import { letOthersIn } from '../let-others-in.ts';
import { byIssueDate, listedParts, listedWhere } from './selection-keys.ts';
import { indexPageQuery, indexWindows, PAGE, windowWhere, type Position, type Window } from './selection-windows.ts';
import { packedTextBytes } from '../silo/packed-document.ts';

export { indexPageQuery, type Position } from './selection-windows.ts';

export interface ExportSelection {
  ids?: string[];
  folder?: string;
  state?: string;
  tag?: string;
  date_from?: string;
  date_to?: string;
}

/**
 * A bounded part of the selection: its entries among a list of seqs (ids given, or a
 * small filter's rows), or among a window of the issue-date index.
 */
type Part = { seqs: number[] } | Window;

/**
 * The rows of the selection, a page at a time (the event loop breathes between pages): the
 * entries without an issue date first, then by date, then as they arrived (created_at, id).
 * That is the order of the list's issue-date index (company, issue_date, created_at, id), so
 * a selection is read along it, a window of WINDOW entries at a time: a small folder or tag
 * at a million entries once made one page a walk of the whole company (1.8–23 s). A
 * selection of ids, or one a small filter narrows (DRIVE_LIMIT), is read from those
 * entries' own rows instead: their sort keys, sorted here, then the rows a page at a time.
 */
export async function* selectedEntries(ctx: Ctx, selection: ExportSelection, signal?: AbortSignal): AsyncGenerator<EntryRow> {
  const listed = await listedParts(ctx, selection, signal);
  if (!listed) {
    for await (const window of indexWindows(ctx, selection, signal)) yield* windowRows(ctx, selection, window, signal);
    return;
  }
  const keys: Position[] = [];
  for await (const part of listed) keys.push(...part);
  keys.sort(byIssueDate);
  for (let i = 0; i < keys.length; i += PAGE) {
    signal?.throwIfAborted();
    const seqs = keys.slice(i, i + PAGE).map((k) => Number(k.seq));
    // Read again under the selection's conditions: one trashed or changed since is left out.
    const w = listedWhere(ctx, selection, { seqs });
    const rows = await ctx.service.db.sql<EntryRow>(`SELECT e.* FROM ${w.from} WHERE ${w.where}`, w.params);
    const bySeq = new Map(rows.map((r) => [Number(r.seq), r]));
    for (const seq of seqs) {
      const row = bySeq.get(seq);
      if (row) yield row;
    }
    await letOthersIn();
  }
}

/** The rows of one window, a page at a time. */
async function* windowRows(ctx: Ctx, selection: ExportSelection, window: Window, signal?: AbortSignal): AsyncGenerator<EntryRow> {
  let after = window.after;
  for (;;) {
    signal?.throwIfAborted();
    const page = indexPageQuery(ctx, selection, window.dated, after, window.upTo);
    const rows = await ctx.service.db.sql<EntryRow>(page.sql, page.params);
    for (const row of rows) yield row;
    if (rows.length < PAGE) return;
    after = rows[rows.length - 1];
    await letOthersIn();
  }
}

/**
 * How many entries the selection holds, how many files their attachments add, and their
 * bytes (envelopes and files), a bounded part at a time (a window of the index, or a
 * chunk of listed entries). Past `upTo` entries it stops counting and measures nothing
 * more (`entries` is then upTo + 1): a ZIP refuses such a selection anyway, and summing a
 * million envelopes and their files took 10 s.
 */
export async function measureSelection(ctx: Ctx, selection: ExportSelection, upTo = Number.MAX_SAFE_INTEGER, signal?: AbortSignal): Promise<{ entries: number; files: number; bytes: number }> {
  const { db } = ctx.service;
  const pg = db.dialect === 'postgres';
  const listed = await listedParts(ctx, selection, signal);
  const parts: AsyncIterable<Part> = listed ? seqsOf(listed) : indexWindows(ctx, selection, signal);
  // PostgreSQL's sum() of bigint is numeric, text to the client: cast back so the sizes add up as numbers.
  const sum = (expr: string) => `coalesce(sum(${expr}), 0)${pg ? '::bigint' : ''}`;
  // octet_length: the text's bytes (length() counts characters, reading each value whole); a packed one says its own.
  const envelopeBytes = pg ? 'octet_length(e.data)' : packedTextBytes('e.data');
  const total = { entries: 0, files: 0, bytes: 0 };
  for await (const part of parts) {
    const { from, where, params } = 'seqs' in part ? listedWhere(ctx, selection, { seqs: part.seqs }) : windowWhere(ctx, selection, part);
    const counted = await db.sqlFirst<{ n: number; bytes: number }>(`SELECT count(*) AS n, ${sum(envelopeBytes)} AS bytes FROM ${from} WHERE ${where}`, params);
    total.entries += Number(counted?.n ?? 0);
    if (total.entries > upTo) return { entries: upTo + 1, files: 0, bytes: 0 };
    const files = await db.sqlFirst<{ n: number; bytes: number }>(
      `SELECT count(*) AS n, ${sum('a.size')} AS bytes FROM attachments a WHERE a.company_id = ? AND a.entry_id IN (SELECT e.id FROM ${from} WHERE ${where})`,
      [ctx.caller.companyKey, ...params],
    );
    total.files += Number(files?.n ?? 0);
    total.bytes += Number(counted?.bytes ?? 0) + Number(files?.bytes ?? 0);
    await letOthersIn();
  }
  return total;
}

async function* seqsOf(chunks: AsyncGenerator<Position[]>): AsyncGenerator<Part> {
  for await (const keys of chunks) if (keys.length > 0) yield { seqs: keys.map((k) => Number(k.seq)) };
}
