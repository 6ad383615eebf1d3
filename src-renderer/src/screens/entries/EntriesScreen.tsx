import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { Entry } from '../../api/types.ts';
import { useApi } from '../../app/ApiContext.tsx';
import { useShortcuts } from '../../app/keyboard.ts';
import { navigate, type Route } from '../../app/routes.ts';
import { useApiQuery } from '../../data/queries.ts';
import { useDebounced } from '../../app/useDebounced.ts';
import { formatCount, plural } from '../../format/count.ts';
import { searchWords } from '../../format/highlight.ts';
import { EmptyState } from '../../ui/EmptyState.tsx';
import { Icon } from '../../ui/Icon.tsx';
import { EntryView } from '../entry/EntryView.tsx';
import { useImport } from '../import/ImportProvider.tsx';
import { RunWorkflowDialog } from '../workflows/RunWorkflowDialog.tsx';
import { ExportDialog, type ExportScope } from '../exports/ExportDialog.tsx';
import { MoveDialog, TagDialog, type ResolveTargets } from './BulkDialogs.tsx';
import { EntryGrid } from './EntryGrid.tsx';
import { EntryToolbar } from './EntryToolbar.tsx';
import { ColumnsMenu } from './ColumnsMenu.tsx';
import { nextSort, rememberColumns, rememberedColumns, visibleColumns, type ColumnDef, type ColumnId } from './columns.ts';
import { filterQuery, hasNarrowing, loadAllEntries, NO_FILTERS, type EntryFilters } from './filters.ts';
import { FolderSidebar } from './FolderSidebar.tsx';
import { SelectionBar } from './SelectionBar.tsx';
import { SumBar } from './SumBar.tsx';
import { showsView, stateOfView, viewBodyOf, type SavedView } from './views.ts';
import { ViewsMenu } from './ViewsMenu.tsx';
import { useEntrySource } from './useEntrySource.ts';
import { useSelection } from './useSelection.ts';
import './entries.css';

type BulkAction = 'move' | 'tag' | 'run' | 'export' | 'export-list';
const SEARCH_DEBOUNCE_MS = 200;

/**
 * The main screen: folders, search and filters, the entry list, and the entry view
 * over it. `route` is undefined while another screen is shown; the list then stays
 * mounted but hidden, so its pages, scroll position and selection are kept.
 */
export function EntriesScreen({ route }: { route?: Extract<Route, { screen: 'entries' }> }) {
  const visible = route !== undefined;
  const openId = route?.entryId;
  const api = useApi();
  const importer = useImport();
  const [filters, setFilters] = useState<Omit<EntryFilters, 'q'>>(NO_FILTERS);
  const [query, setQuery] = useState('');
  const q = useDebounced(query.trim(), SEARCH_DEBOUNCE_MS);
  const effective = useMemo<EntryFilters>(() => ({ ...filters, q }), [filters, q]);
  const source = useEntrySource(effective);
  const selection = useSelection();
  const [activeId, setActiveId] = useState<string>();
  const openIdRef = useRef(openId);
  openIdRef.current = openId;
  const [bulk, setBulk] = useState<BulkAction>();
  const searchRef = useRef<HTMLInputElement>(null);
  const [chosenColumns, setChosenColumns] = useState<ColumnId[]>(rememberedColumns);
  const columns = useMemo(() => visibleColumns(chosenColumns), [chosenColumns]);
  const chooseColumns = useCallback((next: ColumnId[]) => {
    setChosenColumns(next);
    rememberColumns(next);
  }, []);
  const sort = useMemo(() => ({ by: filters.sort, ascending: filters.ascending }), [filters.sort, filters.ascending]);
  const onSort = useCallback((column: ColumnDef) => setFilters((f) => ({ ...f, ...sortFields(nextSort({ by: f.sort, ascending: f.ascending }, column)) })), []);
  const words = useMemo(() => searchWords(q), [q]);

  const views = useApiQuery('listViews');
  const viewList = views.data?.list ?? [];
  const activeView = viewList.find((v) => showsView(v, effective, chosenColumns, sort));
  const applyView = useCallback(
    (view: SavedView) => {
      const next = stateOfView(view);
      const { q: viewQuery, ...rest } = next.filters;
      setFilters(rest);
      setQuery(viewQuery);
      chooseColumns(next.columns);
    },
    [chooseColumns],
  );

  const folders = useApiQuery('listFolders');
  const folderList = folders.data?.list ?? [];

  // A new set of results (another filter, search or order) starts with nothing selected, and at its top:
  // the row active before would keep the grid scrolled to wherever that entry now falls.
  const filterKey = JSON.stringify(effective);
  const { clear } = selection;
  useEffect(() => {
    clear();
    if (!openIdRef.current) setActiveId(undefined);
  }, [filterKey, clear]);

  const rows = source.rows;

  const total = useMemo(() => {
    if (!source.hasMore && source.ready) return rows.length;
    if (hasNarrowing(effective)) return undefined;
    const counts = folders.data?.list;
    if (!counts) return undefined;
    return effective.folder !== undefined ? (counts.find((f) => f.folder === effective.folder)?.count ?? 0) : counts.reduce((s, f) => s + f.count, 0);
  }, [source.hasMore, source.ready, rows.length, effective, folders.data]);

  const knownTags = useMemo(() => {
    const seen = new Set<string>();
    for (const row of rows) for (const t of row.tags) if (seen.size < 300) seen.add(t);
    return [...seen].sort();
  }, [rows]);

  const open = useCallback((id: string) => {
    setActiveId(id);
    navigate({ screen: 'entries', entryId: id });
  }, []);

  const focusGrid = () => document.querySelector<HTMLElement>('.entry-grid')?.focus({ preventScroll: true });

  // Back from an entry: the list has the focus again, on the row that was open.
  const wasOpen = useRef(openId);
  useEffect(() => {
    if (wasOpen.current && !openId && visible) focusGrid();
    if (openId) setActiveId(openId);
    wasOpen.current = openId;
  }, [openId, visible]);

  const step = (delta: number) => {
    const ids = rows.map((r) => r.id);
    if (ids.length === 0) return;
    const current = ids.indexOf(openId ?? activeId ?? '');
    const next = ids[Math.max(0, Math.min(ids.length - 1, current < 0 ? 0 : current + delta))];
    if (openId) {
      if (next !== openId) navigate({ screen: 'entries', entryId: next, tab: route?.tab }, { replace: true });
      setActiveId(next);
    } else {
      setActiveId(next);
      focusGrid();
    }
    if (current >= ids.length - 5) source.loadMore();
  };

  useShortcuts(visible, {
    j: () => step(1),
    k: () => step(-1),
    x: () => activeId && !openId && selection.toggle(activeId),
    Escape: (event) => {
      if (openId) {
        event.preventDefault();
        navigate({ screen: 'entries' });
      }
    },
  });

  const resolveTargets: ResolveTargets = useCallback(
    async (signal, onProgress) => {
      if (selection.allMatching) return loadAllEntries(api, effective, onProgress, signal);
      return rows.filter((r) => selection.ids.has(r.id));
    },
    [api, effective, rows, selection.allMatching, selection.ids],
  );

  const selectedCount = selection.allMatching ? (total ?? rows.length) : selection.ids.size;
  const allLoadedSelected = rows.length > 0 && rows.every((r) => selection.ids.has(r.id));
  const narrowed = hasNarrowing(effective);
  const searching = q !== '';

  const clearFilters = () => {
    setFilters((f) => ({ ...NO_FILTERS, folder: f.folder, sort: f.sort, ascending: f.ascending }));
    setQuery('');
  };
  const selectedRows = useMemo(() => (selection.allMatching ? [] : rows.filter((r) => selection.ids.has(r.id))), [rows, selection.allMatching, selection.ids]);

  const empty = narrowed ? (
    <EmptyState icon="search" title="Nothing matches" actions={<button type="button" className="btn" onClick={clearFilters}>Clear search and filters</button>}>
      {searching ? `No entry mentions “${q}”` : 'No entry matches these filters'}
      {effective.folder ? ` in ${effective.folder}` : ''}.
    </EmptyState>
  ) : (
    <EmptyState
      icon="inbox"
      title={effective.folder ? `${effective.folder} is empty` : 'No entries yet'}
      actions={
        <button type="button" className="btn btn-primary" onClick={importer.pickFiles}>
          <Icon name="upload" /> Import files
        </button>
      }
    >
      Drop GOBL invoices (JSON), PDFs, images or XML anywhere on this window, or pick files to import.
    </EmptyState>
  );

  return (
    <section className="screen entries-screen" data-hidden={!visible} inert={!visible} aria-label="Entries">
      <FolderSidebar
        folders={folderList}
        current={filters.folder}
        onSelect={(folder) => {
          setFilters((f) => ({ ...f, folder }));
          if (openId) navigate({ screen: 'entries' });
        }}
      />
      <div className="entries-main">
        <div className="entries-list" data-hidden={!!openId} inert={!!openId}>
          <EntryToolbar
            query={query}
            onQuery={setQuery}
            filters={effective}
            onFilters={(change) => setFilters((f) => ({ ...f, ...change }))}
            onClear={clearFilters}
            knownTags={knownTags}
            searchRef={searchRef}
            onLeaveSearch={() => {
              if (!activeId && rows[0]) setActiveId(rows[0].id);
              focusGrid();
            }}
            menus={
              <>
                <ViewsMenu
                  views={viewList}
                  activeId={activeView?.id}
                  current={(name) => viewBodyOf(name, effective, chosenColumns, sort)}
                  onApply={applyView}
                />
                <ColumnsMenu columns={chosenColumns} onChange={chooseColumns} />
              </>
            }
          />
          {selection.ids.size > 0 || selection.allMatching ? (
            <SelectionBar
              count={selectedCount}
              loaded={rows.length}
              allLoadedSelected={allLoadedSelected}
              hasMore={source.hasMore}
              allMatching={selection.allMatching}
              total={total}
              onAllMatching={selection.setAllMatching}
              onMove={() => setBulk('move')}
              onTag={() => setBulk('tag')}
              onRun={() => setBulk('run')}
              onExport={() => setBulk('export')}
              onClear={selection.clear}
            />
          ) : (
            <div className="list-summary" aria-live="polite">
              <h1 className="list-title">{activeView?.name ?? effective.folder ?? 'All entries'}</h1>
              <span className="muted">
                {!source.ready
                  ? 'Loading…'
                  : total !== undefined
                    ? plural(total, 'entry', 'entries')
                    : `${formatCount(rows.length)}+ entries`}
                {searching && source.ready ? ` for “${q}”` : ''}
              </span>
              <button type="button" className="btn btn-sm list-export" onClick={() => setBulk('export-list')} disabled={rows.length === 0}>
                <Icon name="download" /> Export…
              </button>
            </div>
          )}
          <EntryGrid
            resultsKey={filterKey}
            rows={rows}
            hasMore={source.hasMore}
            loading={source.loading}
            ready={source.ready}
            error={source.error}
            total={total}
            selection={selection}
            activeId={activeId}
            onActivate={setActiveId}
            onOpen={open}
            loadMore={source.loadMore}
            retry={source.retry}
            empty={empty}
            columns={columns}
            sort={sort}
            onSort={searching ? undefined : onSort}
            words={words}
            footer={selection.ids.size > 0 || selection.allMatching ? <SumBar rows={selectedRows} allMatching={selection.allMatching} filters={effective} /> : undefined}
          />
        </div>
        {openId && (
          <EntryView
            key={openId}
            entryId={openId}
            tab={route?.tab}
            fileId={route?.fileId}
            position={positionOf(rows, openId)}
          />
        )}
      </div>

      <MoveDialog
        open={bulk === 'move'}
        count={selectedCount}
        resolve={resolveTargets}
        folders={folderList.map((f) => f.folder)}
        onClose={() => setBulk(undefined)}
        onDone={() => {
          setBulk(undefined);
          selection.clear();
        }}
      />
      <TagDialog
        open={bulk === 'tag'}
        count={selectedCount}
        resolve={resolveTargets}
        knownTags={knownTags}
        onClose={() => setBulk(undefined)}
        onDone={() => {
          setBulk(undefined);
          selection.clear();
        }}
      />
      <RunWorkflowDialog open={bulk === 'run'} count={selectedCount} resolve={resolveTargets} onClose={() => setBulk(undefined)} />
      <ExportDialog
        open={bulk === 'export' || bulk === 'export-list'}
        onClose={() => setBulk(undefined)}
        count={bulk === 'export' ? selectedCount : total}
        what={bulk === 'export' ? 'the selected entries' : effective.folder ? `the entries in ${effective.folder}` : 'the entries listed'}
        scope={async (): Promise<ExportScope> => {
          // A search has no server-side filter to export by: its hits are exported by id.
          if (bulk === 'export' && !selection.allMatching) return { ids: [...selection.ids] };
          if (searching) return { ids: (await loadAllEntries(api, effective, () => {}, new AbortController().signal)).map((e) => e.id) };
          return filterQuery(effective);
        }}
      />
    </section>
  );
}

const sortFields = (s: { by: EntryFilters['sort']; ascending: boolean }) => ({ sort: s.by, ascending: s.ascending });

function positionOf(rows: Entry[], id: string): { index: number; count: number } | undefined {
  const index = rows.findIndex((r) => r.id === id);
  return index < 0 ? undefined : { index, count: rows.length };
}
