// The issue-date index cut into windows an export reads one at a time: no statement
// looks at more than WINDOW entries of it, whatever the selection keeps.
import type { Ctx } from '../api/handler.ts';
import { letOthersIn } from '../let-others-in.ts';
import { filterSql } from '../silo/entry-filters.ts';
import type { ExportSelection } from './selection.ts';

/** Rows an export reads at once. */
export const PAGE = 200;
/** Entries of the issue-date index one window of a walk spans: the most a statement looks at, so none holds the event loop long. */
export const WINDOW = 4_000;

/** A place in the issue-date index: its columns, then the rowid (seq) that ends every entry of it (created-ties.ts). */
export type Position = { issue_date: string | null; created_at: string; seq: number };

export interface Window {
  dated: boolean;
  /** the window starts after this position (at the start of its run when undefined) */
  after?: Position;
  /** and ends at this one, included (at the end of its run when undefined) */
  upTo?: Position;
}

/**
 * Where a window of the issue-date index reads on each engine: SQLite is told the index
 * (INDEXED BY). Left to choose, it took the created_at index or the folder's (both hold
 * created_at) for a window's bounds, and read every entry created meanwhile: 708 ms for a
 * window of undated entries in a folder at a million.
 */
const ALONG_INDEX = { sqlite: 'entries e INDEXED BY entries_sort_issue_date', postgres: 'entries e' } as const;

/**
 * The conditions of a window's entries (or of a page of it after `after`) that the
 * selection keeps. A position bound stands in for the dates it implies (a position
 * after one in the selection's dates is a dated one, on or after date_from): SQLite
 * seeks an index by one lower and one upper bound of a column, and given both it took
 * `issue_date >= ?` and walked every page from the start of the dates again.
 */
export function windowWhere(ctx: Ctx, selection: ExportSelection, window: Window, live = true): { from: string; where: string; params: unknown[] } {
  const filters = filterSql({ ...selection, date_from: undefined, date_to: undefined }, 'e', live);
  const where = ['e.company_id = ?', ...filters.where];
  const params: unknown[] = [ctx.caller.companyKey, ...filters.params];
  const bound = (fragment: string, ...values: unknown[]) => {
    where.push(fragment);
    params.push(...values);
  };
  if (!window.dated) bound('e.issue_date IS NULL');
  if (window.dated && window.after) bound('(e.issue_date, e.created_at, e.seq) > (?, ?, ?)', window.after.issue_date, window.after.created_at, window.after.seq);
  else if (window.dated) bound(selection.date_from !== undefined ? 'e.issue_date >= ?' : 'e.issue_date IS NOT NULL', ...(selection.date_from !== undefined ? [selection.date_from] : []));
  else if (window.after) bound('(e.created_at, e.seq) > (?, ?)', window.after.created_at, window.after.seq);
  if (window.dated && window.upTo) bound('(e.issue_date, e.created_at, e.seq) <= (?, ?, ?)', window.upTo.issue_date, window.upTo.created_at, window.upTo.seq);
  else if (window.dated && selection.date_to !== undefined) bound('e.issue_date <= ?', selection.date_to);
  else if (!window.dated && window.upTo) bound('(e.created_at, e.seq) <= (?, ?)', window.upTo.created_at, window.upTo.seq);
  return { from: ALONG_INDEX[ctx.service.db.dialect], where: where.join(' AND '), params };
}

/** One page of a walk along the issue-date index: of the undated entries or the dated ones, after `after` and up to `upTo`. */
export function indexPageQuery(ctx: Ctx, selection: ExportSelection, dated: boolean, after?: Position, upTo?: Position): { sql: string; params: unknown[] } {
  const w = windowWhere(ctx, selection, { dated, after, upTo });
  return { sql: `SELECT e.* FROM ${w.from} WHERE ${w.where} ORDER BY e.issue_date, e.created_at, e.seq LIMIT ${PAGE}`, params: w.params };
}

/**
 * The company's issue-date index cut into windows of WINDOW entries, in its order: the
 * undated run (none when the selection bounds the date), then the dated one within the
 * selection's dates. Each end is found along the index alone (its columns are all there).
 */
export async function* indexWindows(ctx: Ctx, selection: ExportSelection, signal?: AbortSignal): AsyncGenerator<Window> {
  const { db } = ctx.service;
  const bounded = selection.date_from !== undefined || selection.date_to !== undefined;
  for (const dated of bounded ? [true] : [false, true]) {
    let after: Position | undefined;
    for (;;) {
      signal?.throwIfAborted();
      // Only the index's own columns (not even the trash): the window's end is found without reading a row.
      const w = windowWhere(ctx, { date_from: selection.date_from, date_to: selection.date_to }, { dated, after }, false);
      const upTo = await db.sqlFirst<Position>(
        `SELECT e.issue_date, e.created_at, e.seq FROM ${w.from} WHERE ${w.where} ORDER BY e.issue_date, e.created_at, e.seq LIMIT 1 OFFSET ${WINDOW - 1}`,
        w.params,
      );
      yield { dated, after, upTo };
      if (!upTo) break;
      after = upTo;
      await letOthersIn();
    }
  }
}
