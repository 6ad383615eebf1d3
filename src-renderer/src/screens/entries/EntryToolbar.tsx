import type { ReactNode, RefObject } from 'react';
import { ENTRY_STATES } from '../../ui/StatusBadge.tsx';
import { Icon } from '../../ui/Icon.tsx';
import { COLUMNS, type EntrySort } from './columns.ts';
import type { EntryFilters } from './filters.ts';

interface EntryToolbarProps {
  query: string;
  onQuery(q: string): void;
  filters: EntryFilters;
  onFilters(change: Partial<EntryFilters>): void;
  onClear(): void;
  knownTags: string[];
  searchRef: RefObject<HTMLInputElement | null>;
  onLeaveSearch(): void;
  /** the views and columns menus, at the end of the bar */
  menus?: ReactNode;
}

interface Order {
  value: string;
  label: string;
  sort: EntrySort;
  ascending: boolean;
}

/**
 * Every order the list can be in, also reachable from the keyboard (the column headers
 * sort with a click): newest or oldest stored, then each sortable column both ways.
 */
const ORDERS: Order[] = [
  { value: 'newest', label: 'Newest first', sort: 'created_at', ascending: false },
  { value: 'oldest', label: 'Oldest first', sort: 'created_at', ascending: true },
  ...COLUMNS.filter((c) => c.sort && c.sort !== 'created_at').flatMap((c): Order[] => {
    const [low, high] = c.amount ? ['smallest', 'largest'] : c.sort === 'issue_date' || c.sort === 'due_date' ? ['earliest', 'latest'] : ['A to Z', 'Z to A'];
    const both = [true, false].map((ascending) => ({ value: `${c.sort}-${ascending ? 'asc' : 'desc'}`, label: `${c.label}, ${ascending ? low : high} first`, sort: c.sort!, ascending }));
    return c.descFirst ? both.reverse() : both;
  }),
];

const orderValue = (sort: EntrySort, ascending: boolean): string =>
  sort === 'created_at' ? (ascending ? 'oldest' : 'newest') : `${sort}-${ascending ? 'asc' : 'desc'}`;

/** Search as you type, and the filters: state, tag, issue date range, order. */
export function EntryToolbar({ query, onQuery, filters, onFilters, onClear, knownTags, searchRef, onLeaveSearch, menus }: EntryToolbarProps) {
  const searching = query.trim() !== '';
  const narrowed = searching || !!(filters.state || filters.tag || filters.dateFrom || filters.dateTo);
  return (
    <div className="entry-toolbar" role="search">
      <div className="search-box">
        <Icon name="search" />
        <label htmlFor="entry-search" className="visually-hidden">
          Search entries
        </label>
        <input
          id="entry-search"
          ref={searchRef}
          className="input"
          type="search"
          placeholder="Search numbers, names, items…"
          autoComplete="off"
          spellCheck={false}
          value={query}
          onChange={(event) => onQuery(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Escape') {
              event.preventDefault();
              if (query) onQuery('');
              else onLeaveSearch();
            } else if (event.key === 'ArrowDown' || event.key === 'Enter') {
              event.preventDefault();
              onLeaveSearch();
            }
          }}
        />
        <kbd aria-hidden="true">/</kbd>
      </div>
      <div className="filter">
        <label htmlFor="filter-state">State</label>
        <select id="filter-state" className="select" value={filters.state ?? ''} onChange={(event) => onFilters({ state: event.target.value || undefined })}>
          <option value="">Any</option>
          {ENTRY_STATES.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </select>
      </div>
      <div className="filter">
        <label htmlFor="filter-tag">Tag</label>
        <input
          id="filter-tag"
          className="input filter-tag"
          list="known-tags"
          placeholder="Any"
          value={filters.tag ?? ''}
          onChange={(event) => onFilters({ tag: event.target.value.trim() || undefined })}
        />
        <datalist id="known-tags">
          {knownTags.map((t) => (
            <option key={t} value={t} />
          ))}
        </datalist>
      </div>
      <div className="filter">
        <label htmlFor="filter-from">Issued from</label>
        <input id="filter-from" className="input" type="date" value={filters.dateFrom ?? ''} max={filters.dateTo} onChange={(event) => onFilters({ dateFrom: event.target.value || undefined })} />
      </div>
      <div className="filter">
        <label htmlFor="filter-to">to</label>
        <input id="filter-to" className="input" type="date" value={filters.dateTo ?? ''} min={filters.dateFrom} onChange={(event) => onFilters({ dateTo: event.target.value || undefined })} />
      </div>
      <div className="filter">
        <label htmlFor="filter-order">Order</label>
        <select
          id="filter-order"
          className="select"
          value={searching ? 'relevance' : orderValue(filters.sort, filters.ascending)}
          disabled={searching}
          title={searching ? 'Search results come by relevance' : undefined}
          onChange={(event) => {
            const order = ORDERS.find((o) => o.value === event.target.value);
            if (order) onFilters({ sort: order.sort, ascending: order.ascending });
          }}
        >
          {searching && <option value="relevance">Relevance</option>}
          {ORDERS.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      </div>
      {narrowed && (
        <button type="button" className="btn btn-ghost btn-sm clear-filters" onClick={onClear}>
          <Icon name="x" />
          Clear
        </button>
      )}
      {menus && <div className="toolbar-menus">{menus}</div>}
    </div>
  );
}
