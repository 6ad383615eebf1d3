// The reads every silo benchmark times, on a dataset (dataset.ts), each with the
// issue's goal as its aim: a list page and one entry ≤ 1.3× the yardstick, related
// and search ≤ 1.5× (and, at a million entries, their p99 too).
import Database from 'better-sqlite3';
import { encodeCursor } from '../../src-main/core/api/cursor.ts';
import { companyKeyIn, type Dataset } from './dataset.ts';
import { readFigures, timeRead, type ReadCase, type ReadPlan } from './reads.ts';
import type { Aim, Figure } from './report.ts';
import type { Servers } from './servers.ts';

export const LIST_AIM: Aim = { op: '<=', value: 1.3, on: 'ratio', goal: 'list page and one entry over HTTP ≤ 1.3× the same-bytes yardstick' };
export const RELATED_AIM: Aim = { op: '<=', value: 1.5, on: 'ratio', goal: 'related and search ≤ 1.5× the yardstick' };
export const SLOWEST_AIM: Aim = { op: '<=', value: 50, on: 'figure', goal: 'no request of any kind over 50 ms at 1M entries' };

/** A cursor the service would hand out after `offset` entries of the newest-first list (signed with its secret). */
function cursorAt(ds: Dataset, offset: number): { cursor: string; depth: number } {
  const db = new Database(ds.dbFile, { readonly: true });
  try {
    const secret = Buffer.from((db.prepare(`SELECT value FROM settings WHERE key = 'cursor_secret'`).get() as { value: string }).value, 'hex');
    const pos = db
      .prepare('SELECT created_at, seq FROM entries WHERE company_id = ? ORDER BY created_at DESC, seq DESC LIMIT 1 OFFSET ?')
      .get(companyKeyIn(db, ds), offset) as { created_at: string; seq: number };
    const scope = JSON.stringify(['entries', companyKeyIn(db, ds), null, null, null, null, null, null, false, null, 'created_at']);
    return { cursor: encodeCursor(secret, scope, [pos.created_at, pos.seq]), depth: offset + 1 };
  } finally {
    db.close();
  }
}

export function siloReadCases(ds: Dataset, atScale: boolean): ReadCase[] {
  const deep = cursorAt(ds, Math.floor(ds.entries / 2));
  const hubs = ds.hubs.slice(0, 50);
  const ids = ds.sampleIds;
  const p99 = atScale ? RELATED_AIM : undefined;
  const q = (text: string) => `/silo/v1/search?q=${encodeURIComponent(text)}`;
  const hits = (text: string) => (ds.search.hits[text] ?? 0).toLocaleString('en-US');
  return [
    { name: 'list, first page (20)', path: () => '/silo/v1/entries?limit=20', aim: LIST_AIM },
    {
      name: `list, deep page (after ${deep.depth.toLocaleString('en-US')})`,
      path: () => `/silo/v1/entries?limit=20&cursor=${encodeURIComponent(deep.cursor)}`,
      aim: LIST_AIM,
    },
    { name: 'one entry, with its document', path: (i) => `/silo/v1/entries/${ids[i % ids.length]}`, variants: ids.length, aim: LIST_AIM },
    {
      name: `related (invoices with 3+ credit notes)`,
      path: (i) => `/silo/v1/entries/${hubs[i % hubs.length]}/related`,
      variants: hubs.length,
      aim: RELATED_AIM,
      p99Aim: p99,
    },
    { name: `search "${ds.search.rare}" (${hits(ds.search.rare)} hits)`, path: () => q(ds.search.rare), aim: RELATED_AIM, p99Aim: p99 },
    { name: `search "${ds.search.medium}" (${hits(ds.search.medium)} hits)`, path: () => q(ds.search.medium), aim: RELATED_AIM, p99Aim: p99 },
    { name: `search "${ds.search.common}" (${hits(ds.search.common)} hits)`, path: () => q(ds.search.common), aim: RELATED_AIM, p99Aim: p99 },
    { name: 'folders with their counts', path: () => '/silo/v1/folders' },
    { name: 'tags with their counts', path: () => '/silo/v1/tags', yardstick: false },
  ];
}

/**
 * Times every case; the figures, the slowest request of all, the longest the server's
 * event loop was held (the yardstick shares the thread, so a block may be either's:
 * the case is named), and any answer that differed.
 */
export async function timeSiloReads(
  servers: Servers,
  ds: Dataset,
  plan: ReadPlan,
  group: string,
  atScale: boolean,
  extra: ReadCase[] = [],
): Promise<{ figures: Figure[]; notes: string[]; slowest: { ms: number; name: string }; longestBlock: { ms: number; name: string; control: number; gc: { ms: number; kind: string } } }> {
  const headers = { authorization: `Bearer ${ds.token}` };
  const figures: Figure[] = [];
  const notes: string[] = [];
  let slowest = { ms: 0, name: '' };
  let longestBlock = { ms: 0, name: '', control: 0, gc: { ms: 0, kind: '' } };
  for (const c of [...siloReadCases(ds, atScale), ...extra]) {
    await servers.loopDelay();
    const t = await timeRead(c, servers.apiUrl, servers.yardstickUrl, headers, plan);
    const block = await servers.loopDelay();
    if (block.max > longestBlock.ms) longestBlock = { ms: block.max, name: c.name, control: block.control ?? NaN, gc: block.gc };
    if (t.difference) notes.push(`${c.name}: the service and the yardstick answered different bytes (${t.difference})`);
    figures.push(...readFigures(c, t, group));
    const max = Math.max(...t.http);
    if (max > slowest.ms) slowest = { ms: max, name: c.name };
  }
  return { figures, notes, slowest, longestBlock };
}
