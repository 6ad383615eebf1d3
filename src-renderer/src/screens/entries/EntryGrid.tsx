import { memo, useCallback, useEffect, useMemo, useRef, type CSSProperties, type KeyboardEvent, type MouseEvent, type ReactNode } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { Entry } from '../../api/types.ts';
import { entryHref } from '../../app/routes.ts';
import { formatDay } from '../../format/date.ts';
import { formatMoney, isNegative } from '../../format/money.ts';
import { ErrorNotice } from '../../ui/ErrorNotice.tsx';
import { Icon } from '../../ui/Icon.tsx';
import { StateBadge } from '../../ui/StatusBadge.tsx';
import { countsNegative, signedAmount } from './amounts.ts';
import { gridLayout, type ColumnDef, type SortState } from './columns.ts';
import { docKind, docNumber, entryTitle, partyName } from './doc-kind.ts';
import { Highlight } from './Highlight.tsx';
import type { Selection } from './useSelection.ts';

const ROW_HEIGHT = 40;
/** The sticky column header's height: rows start below it inside the scrolling grid. */
const HEADER_HEIGHT = 34;
/** Start fetching the next page this many rows before the end comes into view. */
const PREFETCH_ROWS = 40;

interface EntryGridProps {
  /** names the set of results shown: when it changes, the grid goes back to its top */
  resultsKey: string;
  rows: Entry[];
  hasMore: boolean;
  loading: boolean;
  ready: boolean;
  error?: unknown;
  total?: number;
  selection: Selection;
  activeId?: string;
  onActivate(id: string): void;
  onOpen(id: string): void;
  loadMore(): void;
  retry(): void;
  empty: ReactNode;
  /** the columns shown, in order */
  columns: readonly ColumnDef[];
  sort: SortState;
  /** sorting by a header; absent while the list shows search results (they come by relevance) */
  onSort?(column: ColumnDef): void;
  /** the search words to mark in the cells */
  words: readonly string[];
  /** rows below the list (the sums of the selection), in the grid's columns */
  footer?: ReactNode;
}

/**
 * The entry list as an ARIA grid, virtualized: only the rows in view (plus a few)
 * exist in the DOM, so 100k entries scroll like 100. Focus stays on the grid and
 * the active row is named by aria-activedescendant.
 */
export function EntryGrid(props: EntryGridProps) {
  const { resultsKey, rows, hasMore, loading, ready, error, total, selection, activeId, onActivate, onOpen, loadMore, retry, empty, columns, sort, onSort, words, footer } = props;
  const layout = useMemo(() => gridLayout(columns), [columns]);
  // The grid is its own scroll container (so it is the one focusable, scrollable element), with a sticky header.
  const gridRef = useRef<HTMLDivElement>(null);
  const count = rows.length + (hasMore || (loading && rows.length > 0) ? 1 : 0);

  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => gridRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 10,
    scrollMargin: HEADER_HEIGHT,
    scrollPaddingStart: HEADER_HEIGHT,
    getItemKey: (index) => rows[index]?.id ?? '__more',
  });
  const items = virtualizer.getVirtualItems();
  const lastShown = items.length ? items[items.length - 1].index : -1;

  useEffect(() => {
    if (hasMore && lastShown >= rows.length - PREFETCH_ROWS) loadMore();
  }, [hasMore, lastShown, rows.length, loadMore]);

  const ids = useMemo(() => rows.map((r) => r.id), [rows]);
  const activeIndex = activeId ? ids.indexOf(activeId) : -1;

  useEffect(() => {
    if (activeIndex >= 0) virtualizer.scrollToIndex(activeIndex, { align: 'auto' });
  }, [activeIndex, virtualizer]);

  useEffect(() => {
    virtualizer.scrollToOffset(0);
  }, [resultsKey, virtualizer]);

  const move = useCallback(
    (delta: number, extend: boolean) => {
      if (ids.length === 0) return;
      const from = activeIndex < 0 ? (delta > 0 ? -1 : ids.length) : activeIndex;
      const to = Math.max(0, Math.min(ids.length - 1, from + delta));
      onActivate(ids[to]);
      if (extend) selection.extendTo(ids[to], ids);
    },
    [ids, activeIndex, onActivate, selection],
  );

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const page = Math.max(1, Math.floor(((gridRef.current?.clientHeight ?? 400) - HEADER_HEIGHT) / ROW_HEIGHT) - 1);
    const id = activeId && activeIndex >= 0 ? activeId : undefined;
    const mod = event.ctrlKey || event.metaKey;
    switch (event.key) {
      case 'ArrowDown':
        move(1, event.shiftKey);
        break;
      case 'ArrowUp':
        move(-1, event.shiftKey);
        break;
      case 'PageDown':
        move(page, event.shiftKey);
        break;
      case 'PageUp':
        move(-page, event.shiftKey);
        break;
      case 'Home':
        move(-ids.length, event.shiftKey);
        break;
      case 'End':
        move(ids.length, event.shiftKey);
        break;
      case 'Enter':
        if (id) onOpen(id);
        break;
      case ' ':
        if (id) selection.toggle(id);
        break;
      case 'a':
      case 'A':
        if (!mod) return;
        selection.selectAll(ids);
        break;
      case 'Escape':
        if (selection.ids.size === 0) return;
        selection.clear();
        break;
      default:
        return;
    }
    event.preventDefault();
  }

  const onRowClick = useCallback(
    (event: MouseEvent, id: string) => {
      onActivate(id);
      if (event.shiftKey) selection.extendTo(id, ids);
      else if (event.ctrlKey || event.metaKey) selection.toggle(id);
      else selection.only(id);
      gridRef.current?.focus({ preventScroll: true });
    },
    [ids, onActivate, selection],
  );

  const onCheck = useCallback(
    (event: MouseEvent, id: string) => {
      event.stopPropagation();
      onActivate(id);
      if (event.shiftKey) selection.extendTo(id, ids);
      else selection.toggle(id);
    },
    [ids, onActivate, selection],
  );

  const allLoadedSelected = rows.length > 0 && rows.every((r) => selection.ids.has(r.id));
  const someSelected = selection.ids.size > 0 && !allLoadedSelected;

  return (
    <div className="entry-grid-wrap" style={{ '--grid-columns': layout.template, '--grid-min-width': `${layout.minWidth}px` } as CSSProperties}>
      {error !== undefined && rows.length === 0 && <ErrorNotice error={error} onRetry={retry} />}
      <div
        ref={gridRef}
        className="entry-grid"
        role="grid"
        aria-label="Entries"
        aria-multiselectable="true"
        aria-rowcount={total !== undefined ? total + 1 : -1}
        aria-busy={loading && !ready}
        aria-activedescendant={activeIndex >= 0 ? `entry-row-${activeId}` : undefined}
        tabIndex={0}
        onKeyDown={onKeyDown}
        onFocus={() => {
          if (activeIndex < 0 && rows.length > 0) onActivate(rows[0].id);
        }}
      >
        <div role="rowgroup" className="grid-head">
          <div role="row" aria-rowindex={1} className="grid-row">
            <div role="columnheader" className="cell-check">
              <input
                type="checkbox"
                aria-label="Select all loaded entries"
                tabIndex={-1}
                checked={allLoadedSelected}
                ref={(el) => {
                  if (el) el.indeterminate = someSelected;
                }}
                onChange={() => (allLoadedSelected ? selection.clear() : selection.selectAll(ids))}
              />
            </div>
            {columns.map((column) => (
              <ColumnHeader key={column.id} column={column} sort={sort} onSort={onSort} />
            ))}
          </div>
        </div>
        <div role="rowgroup" className="grid-body">
          {ready && rows.length === 0 && !error ? (
            <div role="row" aria-rowindex={2} className="grid-empty">
              <div role="gridcell">{empty}</div>
            </div>
          ) : (
            <div className="grid-sizer" style={{ height: virtualizer.getTotalSize() }}>
              {items.map((item) => {
                const entry = rows[item.index];
                if (!entry) {
                  return (
                    <div key={item.key} role="row" aria-rowindex={item.index + 2} className="grid-row grid-more" style={{ transform: `translateY(${item.start - HEADER_HEIGHT}px)` }}>
                      <div role="gridcell">
                        {error !== undefined ? (
                          <span className="more-error">
                            Could not load more entries.{' '}
                            <button type="button" className="link-btn" onClick={retry}>
                              Try again
                            </button>
                          </span>
                        ) : (
                          <span className="loading-line">
                            <span className="spinner" aria-hidden="true" /> Loading more…
                          </span>
                        )}
                      </div>
                    </div>
                  );
                }
                return (
                  <EntryRow
                    key={item.key}
                    columns={columns}
                    words={words}
                    entry={entry}
                    index={item.index}
                    top={item.start - HEADER_HEIGHT}
                    selected={selection.ids.has(entry.id) || selection.allMatching}
                    active={entry.id === activeId}
                    onClick={onRowClick}
                    onCheck={onCheck}
                    onOpen={onOpen}
                  />
                );
              })}
            </div>
          )}
        </div>
      </div>
      {footer}
    </div>
  );
}

/** A column's header: a button that sorts by it when it can, with aria-sort saying how the list is ordered. */
function ColumnHeader({ column, sort, onSort }: { column: ColumnDef; sort: SortState; onSort?(column: ColumnDef): void }) {
  const className = column.amount ? 'num' : undefined;
  if (!column.sort || !onSort) {
    return (
      <div role="columnheader" className={className}>
        {column.label}
      </div>
    );
  }
  const active = sort.by === column.sort;
  const direction = sort.ascending ? 'ascending' : 'descending';
  return (
    <div role="columnheader" className={className} aria-sort={active ? direction : 'none'}>
      <button
        type="button"
        tabIndex={-1}
        className={`sort-btn${active ? ' is-sorted' : ''}`}
        title={active ? `Sorted by ${column.label.toLowerCase()}, ${direction}; click to reverse` : `Sort by ${column.label.toLowerCase()}`}
        onClick={() => onSort(column)}
      >
        {column.label}
        <Icon name={active && sort.ascending ? 'up' : 'down'} className={active ? undefined : 'sort-hint'} />
      </button>
    </div>
  );
}

interface EntryRowProps {
  entry: Entry;
  columns: readonly ColumnDef[];
  words: readonly string[];
  index: number;
  top: number;
  selected: boolean;
  active: boolean;
  onClick(event: MouseEvent, id: string): void;
  onCheck(event: MouseEvent, id: string): void;
  onOpen(id: string): void;
}

const EntryRow = memo(function EntryRow({ entry, columns, words, index, top, selected, active, onClick, onCheck, onOpen }: EntryRowProps) {
  const s = entry.snippet;
  const number = docNumber(s);
  const kind = docKind(entry.doc_schema, s.type);
  const title = entryTitle(entry);
  const label = number ? `${kind} ${number}` : title || kind;
  const shown = new Set(columns.map((c) => c.id));
  // A document without parties (a scan, a message) shows its title across the party columns.
  const titleInParties = !(s.supplier || s.customer);
  return (
    <div
      id={`entry-row-${entry.id}`}
      role="row"
      aria-rowindex={index + 2}
      aria-selected={selected}
      className={`grid-row${selected ? ' is-selected' : ''}${active ? ' is-active' : ''}${entry.invalid ? ' is-invalid' : ''}`}
      style={{ transform: `translateY(${top}px)` }}
      onClick={(event) => onClick(event, entry.id)}
      onDoubleClick={() => onOpen(entry.id)}
    >
      <div role="gridcell" className="cell-check">
        <input type="checkbox" tabIndex={-1} checked={selected} aria-label={`Select ${label}`} onClick={(event) => onCheck(event, entry.id)} readOnly />
      </div>
      {columns.map((column) => {
        if (titleInParties && (column.id === 'supplier' || column.id === 'customer')) {
          if (column.id === 'customer' && shown.has('supplier')) return null;
          const span = column.id === 'supplier' && shown.has('customer');
          return (
            <div key={column.id} role="gridcell" data-column={column.id} className={`ellipsis${span ? ' cell-title' : ''}`} title={title}>
              <Highlight text={title} words={words} />
            </div>
          );
        }
        return <Cell key={column.id} column={column} entry={entry} number={number} kind={kind} words={words} />;
      })}
    </div>
  );
});

function Cell({ column, entry, number, kind, words }: { column: ColumnDef; entry: Entry; number?: string; kind: string; words: readonly string[] }) {
  const { className, title, content } = cellOf(column, entry, number, kind, words);
  return (
    <div role="gridcell" data-column={column.id} className={className} title={title}>
      {content}
    </div>
  );
}

/** What a column shows for an entry. */
function cellOf(column: ColumnDef, entry: Entry, number: string | undefined, kind: string, words: readonly string[]): { className?: string; title?: string; content: ReactNode } {
  const s = entry.snippet;
  const none = <span className="muted">—</span>;
  switch (column.id) {
    case 'issue_date':
      return s.issue_date
        ? { className: 'nowrap', content: formatDay(s.issue_date) }
        : { className: 'nowrap', title: `Imported ${entry.created_at}`, content: <span className="muted">{formatDay(entry.created_at)}</span> };
    case 'due_date':
      return { className: 'nowrap', content: s.due_date ? formatDay(s.due_date) : none };
    case 'number':
      return {
        className: 'ellipsis',
        content: (
          <a href={entryHref(entry.id)} tabIndex={-1} className="entry-link" onClick={(event) => event.stopPropagation()}>
            {number ? <Highlight text={number} words={words} /> : <span className="muted">no number</span>}
          </a>
        ),
      };
    case 'type':
      return { className: `ellipsis muted${countsNegative(entry) ? ' kind-credit' : ''}`, content: kind };
    case 'supplier':
    case 'customer': {
      const party = partyName(s[column.id]);
      return { className: 'ellipsis', title: party, content: party ? <Highlight text={party} words={words} /> : none };
    }
    case 'net':
    case 'tax':
    case 'total': {
      const value = signedAmount(entry, column.id);
      return { className: `num${isNegative(value) ? ' negative' : ''}`, content: formatMoney(value, s.currency) };
    }
    case 'state':
      return {
        className: 'cell-state',
        content: (
          <>
            <StateBadge state={entry.state} />
            {entry.invalid && (
              <span className="badge tone-bad" title="Not valid: GOBL finds faults in this document">
                invalid
              </span>
            )}
          </>
        ),
      };
    case 'tags':
      return {
        className: 'cell-tags',
        content: entry.tags.length > 0 && (
          <span className="chips" title={entry.tags.join(', ')}>
            {entry.tags.slice(0, 3).map((t) => (
              <span key={t} className="chip">
                {t}
              </span>
            ))}
            {entry.tags.length > 3 && <span className="muted">+{entry.tags.length - 3}</span>}
          </span>
        ),
      };
    case 'folder':
      return { className: 'ellipsis muted', title: entry.folder, content: entry.folder };
    case 'created_at':
      return { className: 'nowrap muted', title: entry.created_at, content: formatDay(entry.created_at) };
  }
}
