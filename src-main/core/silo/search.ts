import type { Ctx } from '../api/handler.ts';
import { entryViews, type EntryRow, type EntryView } from './entry-view.ts';
import { filterSql, type EntryFilter } from './entry-filters.ts';

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

export interface SearchQuery extends EntryFilter {
  q: string;
  limit: number;
  offset: number;
}

/**
 * Full-text search, best first: entries whose number is exactly what was typed
 * (`EXPORT-001`, as code or as series-code, in the case typed or upper-cased) come
 * before every other hit, then the full-text hits by rank. Pages are offsets into
 * that one order; the exact ones are left out of the full-text part on every page.
 */
export function searchEntries(ctx: Ctx, q: SearchQuery): { list: EntryView[]; q: string; limit: number; offset: number; next_offset?: number } {
  const { store } = ctx.service;
  const match = ftsQueryOf(q.q);
  if (!match) return { list: [], q: q.q, limit: q.limit, offset: q.offset };
  const filters = filterSql(q, 'e');
  const exact = exactNumberMatches(ctx, q.q, filters);
  const exactPart = exact.slice(q.offset, q.offset + q.limit);
  const ftsOffset = Math.max(0, q.offset - exact.length);
  const ftsLimit = q.limit - exactPart.length;
  const exclude = exact.length ? `AND e.id NOT IN (${exact.map(() => '?').join(', ')})` : '';
  // Each filter is a fixed SQL fragment with a bound value: nothing from the query string enters the SQL text.
  const rows = store
    .statement(
      `SELECT e.* FROM entries_fts f JOIN entries e ON e.seq = f.rowid
       WHERE entries_fts MATCH ? AND e.company_id = ? ${filters.where.map((w) => `AND ${w}`).join(' ')} ${exclude}
       ORDER BY f.rank, e.created_at DESC LIMIT ? OFFSET ?`,
    )
    .all(match, ctx.caller.companyId, ...filters.params, ...exact.map((r) => r.id), ftsLimit + 1, ftsOffset) as EntryRow[];
  const more = rows.length > ftsLimit;
  if (more) rows.pop();
  return {
    list: entryViews(store, [...exactPart, ...rows]),
    q: q.q,
    limit: q.limit,
    offset: q.offset,
    ...(more ? { next_offset: q.offset + q.limit } : {}),
  };
}

const EXACT_MAX = 20;

/**
 * Entries whose document number is the text typed, as GOBL writes it: the code alone,
 * or series and code joined by a dash (`FV-2026-0001` is series FV, code 2026-0001, or
 * series FV-2026, code 0001). Each candidate is an index lookup on the identity's code.
 */
function exactNumberMatches(ctx: Ctx, text: string, filters: { where: string[]; params: unknown[] }): EntryRow[] {
  const typed = text.trim();
  if (typed === '' || typed.length > 100) return [];
  const candidates = new Map<string, { series: string | null; code: string }>();
  for (const variant of new Set([typed, typed.toUpperCase()])) {
    candidates.set(`|${variant}`, { series: null, code: variant });
    for (let at = variant.indexOf('-'); at > 0 && at < variant.length - 1; at = variant.indexOf('-', at + 1)) {
      candidates.set(`${variant.slice(0, at)}|${variant.slice(at + 1)}`, { series: variant.slice(0, at), code: variant.slice(at + 1) });
    }
  }
  const branches = [...candidates.values()].map((c) => (c.series === null ? 'i.code = ?' : '(i.code = ? AND i.series = ?)'));
  const values = [...candidates.values()].flatMap((c) => (c.series === null ? [c.code] : [c.code, c.series]));
  return ctx.service.store
    .statement(
      `SELECT e.* FROM entry_identities i JOIN entries e ON e.id = i.entry_id
       WHERE i.company_id = ? AND (${branches.join(' OR ')}) ${filters.where.map((w) => `AND ${w}`).join(' ')}
       ORDER BY e.created_at DESC, e.id DESC LIMIT ${EXACT_MAX}`,
    )
    .all(ctx.caller.companyId, ...values, ...filters.params) as EntryRow[];
}
