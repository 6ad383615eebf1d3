import type { Selectable } from 'kysely';
import type { SeriesEntriesTable, SeriesTable } from '../db/tables.ts';

export type SeriesRow = Selectable<SeriesTable>;
export type SeriesEntryRow = Selectable<SeriesEntriesTable>;

export interface SeriesView {
  id: string;
  created_at: string;
  updated_at: string;
  name: string;
  description: string;
  code: string;
  prefix: string;
  padding: number;
  suffix: string;
  start: number;
  last_index: number;
  last_entry_id?: string;
  issuer: string;
  sigs: string[];
  hold?: { reason: 'restored' | 'fork'; since: string };
}

export interface SeriesEntryView {
  id: string;
  series_id: string;
  created_at: string;
  updated_at: string;
  index: number;
  code: string;
  meta: Record<string, string>;
  previous_id?: string;
  sigs: string[];
}

export function seriesView(row: SeriesRow): SeriesView {
  return {
    id: row.id,
    created_at: row.created_at,
    updated_at: row.updated_at,
    name: row.name,
    description: row.description,
    code: row.code,
    prefix: row.prefix,
    padding: row.padding,
    suffix: row.suffix,
    start: row.start,
    last_index: row.last_index,
    ...(row.last_entry_id ? { last_entry_id: row.last_entry_id } : {}),
    issuer: row.issuer,
    sigs: JSON.parse(row.sigs) as string[],
  };
}

export function seriesEntryView(row: SeriesEntryRow): SeriesEntryView {
  return {
    id: row.id,
    series_id: row.series_id,
    created_at: row.created_at,
    updated_at: row.updated_at,
    index: row.idx,
    code: row.code,
    meta: JSON.parse(row.meta) as Record<string, string>,
    ...(row.previous_id ? { previous_id: row.previous_id } : {}),
    sigs: JSON.parse(row.sigs) as string[],
  };
}
