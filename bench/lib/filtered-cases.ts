// Filtered list pages at a million entries: the filters an accountant clicks (a tag,
// a folder, a state, a date range), each keeping few entries or none, with the list
// newest first and sorted by a column. Only the slowest-request and longest-block aims
// judge them: the yardstick answers the plain reads, and a filtered page's floor is
// what these rows show. The marks are put on a working copy over HTTP, as a user would
// (PATCH with tags, folder, state), so the triggers keep their counts and rows.
import Database from 'better-sqlite3';
import { companyKeyIn, type Dataset } from './dataset.ts';
import type { ReadCase } from './reads.ts';

/** How many entries carry each mark. */
export const MARKED = 40;

export const MARKS = { tag: 'to-review', folder: 'disputed', state: 'queried' } as const;

/** Entries spread over the whole company (by seq), MARKED for each mark, none marked twice. */
function spreadIds(ds: Dataset, count: number): string[] {
  const db = new Database(ds.dbFile, { readonly: true });
  try {
    const step = Math.floor(ds.entries / count);
    const at = db.prepare('SELECT id FROM entries WHERE company_id = ? AND seq >= ? ORDER BY seq LIMIT 1');
    const company = companyKeyIn(db, ds);
    return Array.from({ length: count }, (_, i) => (at.get(company, 1 + i * step + 7) as { id: string }).id);
  } finally {
    db.close();
  }
}

/** Tags MARKED entries, moves MARKED others to a folder and sets MARKED others' state, through the service's PATCH. */
export async function markSelective(ds: Dataset, apiUrl: string): Promise<void> {
  const ids = spreadIds(ds, 3 * MARKED);
  const bodies = [{ tags: [MARKS.tag] }, { folder: MARKS.folder }, { state: MARKS.state }];
  for (const [i, id] of ids.entries()) {
    const res = await fetch(`${apiUrl}/silo/v1/entries/${id}`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${ds.token}`, 'content-type': 'application/json' },
      body: JSON.stringify(bodies[i % 3]),
    });
    if (res.status !== 200) throw new Error(`PATCH ${id} → ${res.status}: ${(await res.text()).slice(0, 300)}`);
  }
}

/** The instance's own id, as its feed names it: the origin of every change of the dataset. */
export async function instanceIdOf(ds: Dataset, apiUrl: string): Promise<string> {
  const res = await fetch(`${apiUrl}/sync/v1/changes?limit=1`, { headers: { authorization: `Bearer ${ds.token}` } });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`GET /sync/v1/changes → ${res.status}: ${text.slice(0, 300)}`);
  return (JSON.parse(text) as { instance_id: string }).instance_id;
}

/**
 * The audit log filtered by what was done and where from, and the sync feed leaving out
 * the caller's own changes: read by the desk's log and by every pull. At a million
 * entries the feed leaving out this instance's own changes finds none to serve (all a
 * million are its own), the costliest page it has.
 */
export function recordReadCases(instanceId: string): ReadCase[] {
  return [
    // The dataset's million creations are on record as its builder's (no token: "workflow"); the marks' PATCHes came over HTTP.
    { name: 'audit log, "entry.created" (a million), 50', path: () => '/silo/v1/audit?limit=50&action=entry.created', yardstick: false },
    { name: `audit log, the "entry" family from HTTP (${3 * MARKED} changes), 50`, path: () => '/silo/v1/audit?limit=50&action=entry&via=http', yardstick: false },
    { name: 'audit log, from sync (none)', path: () => '/silo/v1/audit?limit=50&via=sync', yardstick: false },
    { name: 'sync feed, first page (100)', path: () => '/sync/v1/changes?limit=100', yardstick: false },
    { name: 'sync feed, leaving out its own changes (all of them)', path: () => `/sync/v1/changes?limit=100&exclude_origin=${instanceId}`, yardstick: false },
  ];
}

export function filteredReadCases(): ReadCase[] {
  const list = (query: string) => `/silo/v1/entries?limit=20&${query}`;
  const none = 'date_from=1990-01-01&date_to=1990-12-31';
  return [
    { name: `list, tag "${MARKS.tag}" (${MARKED}), newest first`, path: () => list(`tag=${MARKS.tag}`), yardstick: false },
    { name: `list, tag "${MARKS.tag}" (${MARKED}), by total`, path: () => list(`tag=${MARKS.tag}&sort=total`), yardstick: false },
    { name: `list, folder "${MARKS.folder}" (${MARKED}), by total`, path: () => list(`folder=${MARKS.folder}&sort=total`), yardstick: false },
    { name: `list, state "${MARKS.state}" (${MARKED}), by number`, path: () => list(`state=${MARKS.state}&sort=number`), yardstick: false },
    { name: 'list, issued in 1990 (none), by total', path: () => list(`${none}&sort=total`), yardstick: false },
    { name: 'list, issued in 1990 (none), newest first', path: () => list(none), yardstick: false },
    { name: `list, folder "invoices" and tag "${MARKS.tag}", by supplier`, path: () => list(`folder=invoices&tag=${MARKS.tag}&sort=supplier`), yardstick: false },
    { name: 'list, state "draft" (all), by total', path: () => list('state=draft&sort=total'), yardstick: false },
  ];
}
