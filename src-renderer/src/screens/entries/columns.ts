import type { EntrySort } from '../../../../src-main/core/api/contract/silo.ts';
import { entryColumns } from '../../../../src-main/core/api/contract/silo.ts';

export type ColumnId = (typeof entryColumns)[number];
export type { EntrySort };

export interface ColumnDef {
  id: ColumnId;
  label: string;
  /** the CSS grid track of the column */
  track: string;
  /** narrowest it gets, for the grid's minimum width */
  min: number;
  /** the API's sort that orders the list by this column */
  sort?: EntrySort;
  /** amounts: right-aligned, summed in the selection row */
  amount?: boolean;
  /** the first click sorts descending (newest, largest first) */
  descFirst?: boolean;
}

/** Every column the list can show, in the order they appear. */
export const COLUMNS: readonly ColumnDef[] = [
  { id: 'issue_date', label: 'Issued', track: '104px', min: 104, sort: 'issue_date', descFirst: true },
  { id: 'due_date', label: 'Due', track: '104px', min: 104, sort: 'due_date' },
  { id: 'number', label: 'Number', track: 'minmax(90px, 0.9fr)', min: 90, sort: 'number' },
  { id: 'type', label: 'Type', track: '92px', min: 92 },
  { id: 'supplier', label: 'Supplier', track: 'minmax(100px, 1.4fr)', min: 100, sort: 'supplier' },
  { id: 'customer', label: 'Customer', track: 'minmax(100px, 1.4fr)', min: 100, sort: 'customer' },
  { id: 'net', label: 'Net', track: '118px', min: 118, sort: 'net', amount: true, descFirst: true },
  { id: 'tax', label: 'Tax', track: '108px', min: 108, sort: 'tax', amount: true, descFirst: true },
  { id: 'total', label: 'Total', track: '124px', min: 124, sort: 'total', amount: true, descFirst: true },
  { id: 'state', label: 'State', track: '108px', min: 108, sort: 'state' },
  { id: 'tags', label: 'Tags', track: 'minmax(60px, 1fr)', min: 60 },
  { id: 'folder', label: 'Folder', track: 'minmax(80px, 0.8fr)', min: 80 },
  { id: 'created_at', label: 'Added', track: '120px', min: 120, sort: 'created_at', descFirst: true },
];

export const COLUMN_BY_ID = new Map(COLUMNS.map((c) => [c.id, c]));
export const DEFAULT_COLUMNS: readonly ColumnId[] = ['issue_date', 'number', 'type', 'supplier', 'customer', 'total', 'state', 'tags'];

const CHECK_TRACK = '36px';
const GAP = 10;
const PADDING = 22;

/** The shown columns, in list order, whatever order they were chosen in. */
export function visibleColumns(chosen: readonly ColumnId[]): ColumnDef[] {
  const set = new Set(chosen);
  const shown = COLUMNS.filter((c) => set.has(c.id));
  return shown.length > 0 ? shown : COLUMNS.filter((c) => DEFAULT_COLUMNS.includes(c.id));
}

/** The grid template and minimum width of a row showing these columns (after the checkbox). */
export function gridLayout(columns: readonly ColumnDef[]): { template: string; minWidth: number } {
  return {
    template: [CHECK_TRACK, ...columns.map((c) => c.track)].join(' '),
    minWidth: 36 + columns.reduce((w, c) => w + c.min + GAP, 0) + PADDING,
  };
}

export interface SortState {
  by: EntrySort;
  ascending: boolean;
}

export const DEFAULT_SORT: SortState = { by: 'created_at', ascending: false };

/** What clicking a column's header does: sort by it, or turn its order around. */
export function nextSort(current: SortState, column: ColumnDef): SortState {
  if (!column.sort) return current;
  if (current.by === column.sort) return { by: column.sort, ascending: !current.ascending };
  return { by: column.sort, ascending: !column.descFirst };
}

const COLUMNS_KEY = 'silodesk.entry-columns';

/** The columns chosen last time in this browser (a saved view keeps its own). */
export function rememberedColumns(): ColumnId[] {
  try {
    const saved = JSON.parse(localStorage.getItem(COLUMNS_KEY) ?? 'null') as unknown;
    if (Array.isArray(saved)) {
      const known = saved.filter((c): c is ColumnId => typeof c === 'string' && COLUMN_BY_ID.has(c as ColumnId));
      if (known.length > 0) return known;
    }
  } catch {
    // storage unavailable or garbled: the defaults
  }
  return [...DEFAULT_COLUMNS];
}

export function rememberColumns(columns: readonly ColumnId[]): void {
  try {
    localStorage.setItem(COLUMNS_KEY, JSON.stringify(columns));
  } catch {
    // private mode or full: the choice lasts this session
  }
}
