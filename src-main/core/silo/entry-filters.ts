/** What the entry list, its sums and search narrow entries to. */
export interface EntryFilter {
  folder?: string;
  state?: string;
  tag?: string;
  /** the document's issue date range, inclusive (YYYY-MM-DD) */
  date_from?: string;
  date_to?: string;
  doc_uuid?: string;
}

/**
 * The filters as SQL over `alias` (an `entries` row): each a fixed fragment with its
 * value bound, so nothing from a request ever enters the SQL text.
 */
export function filterSql(f: EntryFilter, alias: string): { where: string[]; params: unknown[] } {
  const where: string[] = [];
  const params: unknown[] = [];
  const add = (fragment: string, value: unknown) => {
    where.push(fragment);
    params.push(value);
  };
  if (f.folder !== undefined) add(`${alias}.folder = ?`, f.folder);
  if (f.state !== undefined) add(`${alias}.state = ?`, f.state);
  if (f.tag !== undefined) add(`EXISTS (SELECT 1 FROM json_each(${alias}.tags) WHERE json_each.value = ?)`, f.tag);
  if (f.date_from !== undefined) add(`${alias}.issue_date >= ?`, f.date_from);
  if (f.date_to !== undefined) add(`${alias}.issue_date <= ?`, f.date_to);
  if (f.doc_uuid !== undefined) add(`${alias}.doc_uuid = ?`, f.doc_uuid);
  return { where, params };
}
