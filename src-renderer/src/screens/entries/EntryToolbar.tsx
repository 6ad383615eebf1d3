import type { RefObject } from 'react';
import { ENTRY_STATES } from '../../ui/StatusBadge.tsx';
import { Icon } from '../../ui/Icon.tsx';
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
}

/** Search as you type, and the filters: state, tag, issue date range, order. */
export function EntryToolbar({ query, onQuery, filters, onFilters, onClear, knownTags, searchRef, onLeaveSearch }: EntryToolbarProps) {
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
          value={searching ? 'relevance' : filters.ascending ? 'oldest' : 'newest'}
          disabled={searching}
          title={searching ? 'Search results come by relevance' : undefined}
          onChange={(event) => onFilters({ ascending: event.target.value === 'oldest' })}
        >
          {searching && <option value="relevance">Relevance</option>}
          <option value="newest">Newest first</option>
          <option value="oldest">Oldest first</option>
        </select>
      </div>
      {narrowed && (
        <button type="button" className="btn btn-ghost btn-sm clear-filters" onClick={onClear}>
          <Icon name="x" />
          Clear
        </button>
      )}
    </div>
  );
}
