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
  q: { q: string; folder?: string; limit: number; offset: number },
): { list: EntryView[]; q: string; limit: number; offset: number; next_offset?: number } {
  const { store } = ctx.service;
  const match = ftsQueryOf(q.q);
  if (!match) return { list: [], q: q.q, limit: q.limit, offset: q.offset };
  const folderClause = q.folder !== undefined ? 'AND e.folder = ?' : '';
  const params: unknown[] = [match, ctx.caller.companyId, ...(q.folder !== undefined ? [q.folder] : []), q.limit + 1, q.offset];
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
