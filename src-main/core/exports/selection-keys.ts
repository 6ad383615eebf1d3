// The keys of a selection that names its entries (ids) or that a small filter narrows:
// read a chunk at a time from those entries' own rows, and put in the export's order here.
import type { Ctx } from '../api/handler.ts';
import { letOthersIn } from '../let-others-in.ts';
import { filterSql } from '../silo/entry-filters.ts';
import { DRIVER_INDEX, filterSizes } from '../silo/filter-plan.ts';
import type { ExportSelection } from './selection.ts';
import type { Position } from './selection-windows.ts';

/** A selection whose narrowest filter keeps no more entries than this is read from that filter's rows (SQLite). */
export const DRIVE_LIMIT = 50_000;
/** Ids or seqs read in one statement. */
const CHUNK = 2_000;

/** An id or a seq among a bound JSON array (one parameter however many: 50,000 ids stay one statement), on each engine. */
const IN_LIST = {
  sqlite: { ids: 'e.id IN (SELECT value FROM json_each(?))', seqs: 'e.seq IN (SELECT value FROM json_each(?))' },
  postgres: {
    ids: 'e.id IN (SELECT value FROM jsonb_array_elements_text(?::jsonb) AS value)',
    seqs: 'e.seq IN (SELECT value::bigint FROM jsonb_array_elements_text(?::jsonb) AS value)',
  },
} as const;

/**
 * The conditions of listed entries (by id or by seq) that the selection keeps, over
 * `entries e`: the company, the trash and the selection's filters as the list writes
 * them (filterSql), and the list.
 */
export function listedWhere(ctx: Ctx, selection: ExportSelection, list: { ids: string[] } | { seqs: number[] }): { from: string; where: string; params: unknown[] } {
  const filters = filterSql(selection, 'e', true);
  const [kind, values] = 'ids' in list ? (['ids', list.ids] as const) : (['seqs', list.seqs] as const);
  return {
    from: 'entries e',
    where: ['e.company_id = ?', ...filters.where, IN_LIST[ctx.service.db.dialect][kind]].join(' AND '),
    params: [ctx.caller.companyKey, ...filters.params, JSON.stringify(values)],
  };
}

/**
 * The selection's sort keys, a chunk at a time, when it is a list of ids or (on SQLite)
 * a filter keeps few entries; undefined when it is read along the index instead.
 */
export async function listedParts(ctx: Ctx, selection: ExportSelection, signal?: AbortSignal): Promise<AsyncGenerator<Position[]> | undefined> {
  if (selection.ids) return keysOfIds(ctx, selection, selection.ids, signal);
  const driver = await smallDriver(ctx, selection);
  return driver ? keysOfDriver(ctx, selection, driver, signal) : undefined;
}

async function* keysOfIds(ctx: Ctx, selection: ExportSelection, ids: string[], signal?: AbortSignal): AsyncGenerator<Position[]> {
  const { db } = ctx.service;
  const unique = [...new Set(ids)];
  for (let i = 0; i < unique.length; i += CHUNK) {
    signal?.throwIfAborted();
    const w = listedWhere(ctx, selection, { ids: unique.slice(i, i + CHUNK) });
    yield await db.sql<Position>(`SELECT e.seq, e.issue_date, e.created_at FROM ${w.from} WHERE ${w.where}`, w.params);
    await letOthersIn();
  }
}

/** The folder, state or tag of the selection that keeps fewest entries, when that is few (SQLite; PostgreSQL's planner picks for itself). */
async function smallDriver(ctx: Ctx, selection: ExportSelection): Promise<'folder' | 'state' | 'tag' | undefined> {
  const { db } = ctx.service;
  if (db.dialect !== 'sqlite' || (selection.folder === undefined && selection.state === undefined && selection.tag === undefined)) return undefined;
  const { sizes } = await filterSizes(db, ctx.caller.companyKey, selection);
  const candidates = (['folder', 'state', 'tag'] as const).filter((d) => sizes[d] !== undefined && sizes[d] <= DRIVE_LIMIT);
  const narrowest = candidates.sort((a, b) => sizes[a]! - sizes[b]!)[0];
  // A date range narrower still is read along the index within those dates.
  return narrowest !== undefined && !(sizes.dates !== undefined && sizes.dates < sizes[narrowest]!) ? narrowest : undefined;
}

/**
 * The keys of a small filter's entries, CHUNK of its rows at a time along its own index
 * (entry_tags for a tag), each row marked by whether the whole selection keeps it: a
 * statement reads CHUNK rows however few of them the other filters keep.
 */
async function* keysOfDriver(ctx: Ctx, selection: ExportSelection, driver: 'folder' | 'state' | 'tag', signal?: AbortSignal): AsyncGenerator<Position[]> {
  const { db } = ctx.service;
  const company = ctx.caller.companyKey;
  const kept = filterSql(selection, 'e', true);
  const columns = `e.seq, e.issue_date, e.created_at, (${kept.where.join(' AND ')}) AS kept`;
  let after: Position | undefined;
  for (;;) {
    signal?.throwIfAborted();
    const rows =
      driver === 'tag'
        ? await db.sql<Position & { kept: number }>(
            `SELECT ${columns} FROM entry_tags t CROSS JOIN entries e ON e.seq = t.seq
             WHERE t.company_id = ? AND t.tag = ? AND t.seq > ? ORDER BY t.seq LIMIT ${CHUNK}`,
            [...kept.params, company, selection.tag, after ? after.seq : -1],
          )
        : await db.sql<Position & { kept: number }>(
            `SELECT ${columns} FROM entries e INDEXED BY ${DRIVER_INDEX[driver]}
             WHERE e.company_id = ? AND e.${driver} = ? ${after ? 'AND (e.created_at, e.seq) > (?, ?)' : ''} ORDER BY e.created_at, e.seq LIMIT ${CHUNK}`,
            [...kept.params, company, selection[driver], ...(after ? [after.created_at, after.seq] : [])],
          );
    yield rows.filter((r) => r.kept).map(({ kept: _k, ...key }) => key);
    if (rows.length < CHUNK) return;
    const last = rows[rows.length - 1];
    after = { issue_date: last.issue_date, created_at: last.created_at, seq: Number(last.seq) };
    await letOthersIn();
  }
}

/** The index's order: no issue date first, then by date and created_at (plain string order, as both engines compare them), then seq. */
export function byIssueDate(a: Position, b: Position): number {
  if (a.issue_date !== b.issue_date) {
    if (a.issue_date === null) return -1;
    if (b.issue_date === null) return 1;
    return a.issue_date < b.issue_date ? -1 : 1;
  }
  if (a.created_at !== b.created_at) return a.created_at < b.created_at ? -1 : 1;
  return Number(a.seq) - Number(b.seq);
}
