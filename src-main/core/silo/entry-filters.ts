import type { Operations } from '../api/contract/index.ts';
import type { ParsedInput } from '../api/operation.ts';

/** What the entry list, its sums and search narrow entries to: the list's filters as its contract parses them. */
export type EntryFilter = Pick<ParsedInput<Operations['listEntries']>['query'], 'folder' | 'state' | 'tag' | 'date_from' | 'date_to' | 'doc_uuid'>;

/** A live entry carrying a tag: a look-up in entry_tags (entry-tags.ts), the same on both engines. */
const HAS_TAG = (alias: string) => `EXISTS (SELECT 1 FROM entry_tags tagged WHERE tagged.company_id = ${alias}.company_id AND tagged.tag = ? AND tagged.seq = ${alias}.seq)`;

/**
 * The filters as SQL over `alias` (an `entries` row): each a fixed fragment with its
 * value bound, so nothing from a request ever enters the SQL text.
 */
export function filterSql(f: EntryFilter, alias: string, live = true): { where: string[]; params: unknown[] } {
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
  if (f.tag !== undefined) add(HAS_TAG(alias), f.tag);
  if (f.date_from !== undefined) add(`${alias}.issue_date >= ?`, f.date_from);
  if (f.date_to !== undefined) add(`${alias}.issue_date <= ?`, f.date_to);
  if (f.doc_uuid !== undefined) add(`${alias}.doc_uuid = ?`, f.doc_uuid);
  return { where, params };
}
