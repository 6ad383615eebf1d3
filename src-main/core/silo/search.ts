import type { Ctx } from '../api/handler.ts';
import { entryViews, type EntryRow, type EntryView } from './entry-view.ts';

/**
 * Turns what a person types into a safe FTS5 query: words are quoted (so no FTS
 * syntax from the input is ever interpreted) and the last one is a prefix, for
 * search as you type. "SAMPLE-001" becomes "sample" "001"* (a phrase-like AND).
 */
export function ftsQueryOf(text: string): string | undefined {
  const words = text.normalize('NFKC').match(/[\p{L}\p{N}]+/gu)?.slice(0, 12);
  if (!words || words.length === 0) return undefined;
  return words.map((w, i) => `"${w}"${i === words.length - 1 ? '*' : ''}`).join(' ');
}

export function searchEntries(
  ctx: Ctx,
  q: { q: string; folder?: string; state?: string; tag?: string; date_from?: string; date_to?: string; limit: number; offset: number },
): { list: EntryView[]; q: string; limit: number; offset: number; next_offset?: number } {
  const { store } = ctx.service;
  const match = ftsQueryOf(q.q);
  if (!match) return { list: [], q: q.q, limit: q.limit, offset: q.offset };
  // Each filter is a fixed SQL fragment with a bound value: nothing from the query string enters the SQL text.
  const filters: Array<[string, unknown]> = [];
  if (q.folder !== undefined) filters.push(['e.folder = ?', q.folder]);
  if (q.state !== undefined) filters.push(['e.state = ?', q.state]);
  if (q.tag !== undefined) filters.push(['EXISTS (SELECT 1 FROM json_each(e.tags) WHERE json_each.value = ?)', q.tag]);
  if (q.date_from !== undefined) filters.push(['e.issue_date >= ?', q.date_from]);
  if (q.date_to !== undefined) filters.push(['e.issue_date <= ?', q.date_to]);
  const folderClause = filters.map(([sql]) => `AND ${sql}`).join(' ');
  const params: unknown[] = [match, ctx.caller.companyId, ...filters.map(([, v]) => v), q.limit + 1, q.offset];
  const rows = store
    .statement(
      `SELECT e.* FROM entries_fts f JOIN entries e ON e.seq = f.rowid
       WHERE entries_fts MATCH ? AND e.company_id = ? ${folderClause}
       ORDER BY f.rank, e.created_at DESC LIMIT ? OFFSET ?`,
    )
    .all(...params) as EntryRow[];
  const more = rows.length > q.limit;
  if (more) rows.pop();
  return {
    list: entryViews(store, rows),
    q: q.q,
    limit: q.limit,
    offset: q.offset,
    ...(more ? { next_offset: q.offset + q.limit } : {}),
  };
}
