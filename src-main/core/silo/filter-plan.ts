import type { Db } from '../db/engine.ts';
import { filterSql, type EntryFilter } from './entry-filters.ts';

/**
 * Which index a filtered page of entries is read along, on SQLite. Two ways to find a
 * page of 20 entries that pass the filters, in the list's order:
 *
 * - walk the order's index and check each entry it meets: about `take × n / m` entries
 *   for `m` matches among `n`, so a filter that keeps 40 of a million walks them all
 *   (a tag carried by none took 1.7–1.9 s; sorted by total, a state 1.8 s);
 * - drive from the narrowest filter's own rows (a folder, tag, state, date range or
 *   document uuid) and sort those: `m` entries, whatever the order.
 *
 * The cheaper of the two is taken: at a million entries and pages of 20 they cross
 * near 4,600 matches, where either reads about that many rows. A folder's or a tag's
 * size is kept by triggers (entry_folder_counts, entry_tag_counts); a state's or a date
 * range's is counted along its index, no further than PROBE_LIMIT. Matches of several
 * filters are estimated as if the filters were independent; a filter that fills the
 * probe is too broad to drive from and is left out of the estimate (the walk is then
 * chosen, as it should be for broad filters).
 *
 * PostgreSQL has statistics and a planner that weighs the same two ways by itself.
 */
export type Driver = 'folder' | 'state' | 'tag' | 'dates' | 'doc_uuid';

/** An index the page can walk in its order; `within`: the filter its leading column holds, so the walk covers only that filter's rows. */
export interface Walk {
  index: string;
  within?: Driver;
}

/** Where a page's rows come from (`FROM …`, over `entries e`), with the company and every filter as conditions. */
export interface EntrySource {
  from: string;
  where: string[];
  params: unknown[];
}

/** The index each filter but the tag drives from (the tag drives from entry_tags). */
export const DRIVER_INDEX: Record<Exclude<Driver, 'tag'>, string> = {
  folder: 'entries_company_folder_created',
  state: 'entries_sort_state',
  dates: 'entries_sort_issue_date',
  doc_uuid: 'entries_company_doc_uuid',
};

/** How far a state's or a date range's rows are counted to size them. */
export const PROBE_LIMIT = 20_000;

const LIVE = 'SELECT coalesce(sum(count), 0) AS n FROM entry_folder_counts WHERE company_id = ?';
const FOLDER_SIZE = 'SELECT count AS n FROM entry_folder_counts WHERE company_id = ? AND folder = ?';
const TAG_SIZE = 'SELECT count AS n FROM entry_tag_counts WHERE company_id = ? AND tag = ?';

/** The live entries each given filter keeps (undefined: more than PROBE_LIMIT by a count along its index), and the company's live entries. */
export async function filterSizes(db: Db, company: string, f: EntryFilter): Promise<{ live: number; sizes: Partial<Record<Driver, number>> }> {
  const n = async (text: string, params: unknown[]) => Number((await db.sqlFirst<{ n: number }>(text, params))?.n ?? 0);
  const probe = async (text: string, params: unknown[]) => {
    const found = await n(`SELECT count(*) AS n FROM (${text} LIMIT ${PROBE_LIMIT + 1})`, params);
    return found > PROBE_LIMIT ? undefined : found;
  };
  const sizes: Partial<Record<Driver, number>> = {};
  if (f.folder !== undefined) sizes.folder = await n(FOLDER_SIZE, [company, f.folder]);
  if (f.tag !== undefined) sizes.tag = await n(TAG_SIZE, [company, f.tag]);
  if (f.state !== undefined) {
    sizes.state = await probe(`SELECT 1 FROM entries INDEXED BY ${DRIVER_INDEX.state} WHERE company_id = ? AND state = ?`, [company, f.state]);
  }
  if (f.date_from !== undefined || f.date_to !== undefined) {
    const bounds = [...(f.date_from !== undefined ? ['issue_date >= ?'] : []), ...(f.date_to !== undefined ? ['issue_date <= ?'] : [])];
    const values = [...(f.date_from !== undefined ? [f.date_from] : []), ...(f.date_to !== undefined ? [f.date_to] : [])];
    sizes.dates = await probe(`SELECT 1 FROM entries INDEXED BY ${DRIVER_INDEX.dates} WHERE company_id = ? AND ${bounds.join(' AND ')}`, [company, ...values]);
  }
  if (f.doc_uuid !== undefined) {
    sizes.doc_uuid = await probe(`SELECT 1 FROM entries INDEXED BY ${DRIVER_INDEX.doc_uuid} WHERE company_id = ? AND doc_uuid = ?`, [company, f.doc_uuid]);
  }
  return { live: await n(LIVE, [company]), sizes };
}

/**
 * The cheaper way to a page (a pure function of the sizes, so it is tested on its own):
 * `{ drive }` from the narrowest filter, or `{ walk }` along one of the order's indexes.
 */
export function choosePlan(live: number, sizes: Partial<Record<Driver, number>>, walks: readonly Walk[], take: number): { drive: Driver } | { walk: Walk } {
  const known = (Object.entries(sizes) as Array<[Driver, number | undefined]>).filter((e): e is [Driver, number] => e[1] !== undefined);
  const total = Math.max(live, 1);
  const matches = known.reduce((m, [, size]) => (m * Math.min(size, total)) / total, total);
  const walkCost = (w: Walk) => {
    const base = (w.within !== undefined ? sizes[w.within] : undefined) ?? total;
    return Math.min(base, (take * base) / Math.max(matches, 1));
  };
  const walk = walks.reduce((best, w) => (walkCost(w) < walkCost(best) ? w : best));
  const narrowest = known.reduce<[Driver, number] | undefined>((best, e) => (best === undefined || e[1] < best[1] ? e : best), undefined);
  return narrowest !== undefined && narrowest[1] < walkCost(walk) ? { drive: narrowest[0] } : { walk };
}

/**
 * The FROM and conditions of a filtered page of the company's live entries: on SQLite
 * along the index choosePlan picks (named with INDEXED BY, so statistics never change
 * it); on PostgreSQL as plain conditions for its planner.
 */
export async function entrySource(db: Db, company: string, f: EntryFilter, walks: readonly Walk[], take: number): Promise<EntrySource> {
  const source = (from: string, filter: EntryFilter, lead: { where: string[]; params: unknown[] } = { where: [], params: [] }): EntrySource => {
    const filters = filterSql(filter, 'e', true);
    return { from, where: [...lead.where, 'e.company_id = ?', ...filters.where], params: [...lead.params, company, ...filters.params] };
  };
  if (db.dialect === 'postgres') return source('entries e', f);
  if (!Object.values(f).some((v) => v !== undefined)) return source(`entries e INDEXED BY ${walks[0].index}`, f);
  const { live, sizes } = await filterSizes(db, company, f);
  const plan = choosePlan(live, sizes, walks, take);
  if ('walk' in plan) return source(`entries e INDEXED BY ${plan.walk.index}`, f);
  if (plan.drive === 'tag') {
    // The tag's rows lead (CROSS JOIN keeps them first); the entry row of each is looked up by its seq.
    return source('entry_tags t CROSS JOIN entries e ON e.seq = t.seq', { ...f, tag: undefined }, { where: ['t.company_id = ?', 't.tag = ?'], params: [company, f.tag] });
  }
  return source(`entries e INDEXED BY ${DRIVER_INDEX[plan.drive]}`, f);
}
