import type { Operations } from '../api/contract/index.ts';
import type { ParsedInput } from '../api/operation.ts';
import type { Dialect } from '../db/engine.ts';

/** What the entry list, its sums and search narrow entries to: the list's filters as its contract parses them. */
export type EntryFilter = Pick<ParsedInput<Operations['listEntries']>['query'], 'folder' | 'state' | 'tag' | 'date_from' | 'date_to' | 'doc_uuid'>;

/** An entry carrying a tag (`tags` is a JSON array in a text column), on each engine. */
const HAS_TAG: Record<Dialect, (alias: string) => string> = {
  sqlite: (alias) => `EXISTS (SELECT 1 FROM json_each(${alias}.tags) WHERE json_each.value = ?)`,
  postgres: (alias) => `${alias}.tags::jsonb @> jsonb_build_array(?::text)`,
};

/**
 * The filters as SQL over `alias` (an `entries` row): each a fixed fragment with its
 * value bound, so nothing from a request ever enters the SQL text.
 */
export function filterSql(f: EntryFilter, alias: string, live = true, dialect: Dialect = 'sqlite'): { where: string[]; params: unknown[] } {
  // Entries in the trash are in no list or sum (trash.ts lists them). `live` false: the rows read have no
  // trashed entry among them already (search's index and identities drop a trashed entry's rows).
  const where: string[] = live ? [`${alias}.trashed_at IS NULL`] : [];
  const params: unknown[] = [];
  const add = (fragment: string, value: unknown) => {
    where.push(fragment);
    params.push(value);
  };
  if (f.folder !== undefined) add(`${alias}.folder = ?`, f.folder);
  if (f.state !== undefined) add(`${alias}.state = ?`, f.state);
  if (f.tag !== undefined) add(HAS_TAG[dialect](alias), f.tag);
  if (f.date_from !== undefined) add(`${alias}.issue_date >= ?`, f.date_from);
  if (f.date_to !== undefined) add(`${alias}.issue_date <= ?`, f.date_to);
  if (f.doc_uuid !== undefined) add(`${alias}.doc_uuid = ?`, f.doc_uuid);
  return { where, params };
}
