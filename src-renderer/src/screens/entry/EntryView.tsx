import { useEffect, useRef, useState, type ReactNode } from 'react';
import { navigate, type EntryTab } from '../../app/routes.ts';
import { useApiQuery, useShowAnswer } from '../../data/queries.ts';
import { formatCount } from '../../format/count.ts';
import { formatMoney } from '../../format/money.ts';
import { saveBlob } from '../../ui/download.ts';
import { Loading } from '../../ui/EmptyState.tsx';
import { ErrorNotice } from '../../ui/ErrorNotice.tsx';
import { Icon } from '../../ui/Icon.tsx';
import { JsonView } from '../../ui/JsonView.tsx';
import { StateBadge } from '../../ui/StatusBadge.tsx';
import { TabPanel, Tabs } from '../../ui/Tabs.tsx';
import { AttachmentsPanel } from '../attachments/AttachmentsPanel.tsx';
import { amountOf } from '../entries/amounts.ts';
import { docKind, docNumber, entryTitle, partyName } from '../entries/doc-kind.ts';
import { RunWorkflowDialog } from '../workflows/RunWorkflowDialog.tsx';
import { CreditNoteDialog } from './CreditNoteDialog.tsx';
import { EditorActions } from './EditorActions.tsx';
import { DocumentView } from './DocumentView.tsx';
import { EntryJobs } from './EntryJobs.tsx';
import { HistoryPanel } from './HistoryPanel.tsx';
import { TrashEntryButton } from '../trash/TrashEntryButton.tsx';
import { EntryProperties } from './EntryProperties.tsx';
import { FaultList } from './FaultList.tsx';
import { MetaList } from './MetaList.tsx';
import { RelatedEntries } from './RelatedEntries.tsx';
import './entry.css';

interface EntryViewProps {
  entryId: string;
  tab?: EntryTab;
  fileId?: string;
  /** where this entry is in the list, for "3 of 120" and j/k */
  position?: { index: number; count: number };
}

/** One entry: its document for reading, the raw JSON, files, jobs and meta, and its properties. */
export function EntryView({ entryId, tab = 'document', fileId, position }: EntryViewProps) {
  // Fetched again by every write that changes entries (invalidation.ts): a PATCH here, a job, a sync.
  const query = useApiQuery('getEntry', { params: { id: entryId } });
  const show = useShowAnswer('getEntry', { params: { id: entryId } });
  const entry = query.data;
  const [running, setRunning] = useState(false);
  const [crediting, setCrediting] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);

  // Opening an entry moves focus into it, so the keyboard and screen readers follow.
  const loaded = entry !== undefined;
  useEffect(() => {
    if (loaded) heading.current?.focus({ preventScroll: true });
  }, [loaded]);

  const setTab = (next: EntryTab) => navigate({ screen: 'entries', entryId, tab: next === 'document' ? undefined : next }, { replace: true });
  const close = () => navigate({ screen: 'entries' });

  if (!entry) {
    return (
      <section className="entry-view" aria-label="Entry">
        <EntryBar onClose={close} position={position} />
        {query.error ? <ErrorNotice error={query.error} onRetry={() => void query.refetch()} /> : <Loading label="Opening the entry…" />}
      </section>
    );
  }

  const s = entry.snippet;
  const number = docNumber(s);
  const title = `${docKind(entry.doc_schema, s.type)} ${number ?? ''}`.trim();

  return (
    <section className="entry-view" aria-labelledby="entry-title">
      <EntryBar onClose={close} position={position}>
        <div className="entry-heading">
          <h1 id="entry-title" ref={heading} tabIndex={-1}>
            {number ? title : entryTitle(entry) || title}
          </h1>
          <p className="muted ellipsis">
            {[partyName(s.supplier), partyName(s.customer)].filter(Boolean).join(' → ')}
            {amountOf(entry, 'total') && <strong className="heading-total"> {formatMoney(amountOf(entry, 'total'), s.currency)}</strong>}
          </p>
        </div>
        <StateBadge state={entry.state} />
        {entry.invalid && (
          <span className="badge tone-bad" title="GOBL finds faults in this document; they are listed below">
            Valid: No
          </span>
        )}
        <div className="entry-actions">
          <EditorActions entry={entry} onCredit={() => setCrediting(true)} />
          <button type="button" className="btn" onClick={() => setRunning(true)}>
            <Icon name="play" /> Run workflow…
          </button>
          <button
            type="button"
            className="btn"
            onClick={() => saveBlob(new Blob([JSON.stringify(entry.data, null, 2)]), `${number ?? entry.id}.json`)}
          >
            <Icon name="download" /> JSON
          </button>
          <TrashEntryButton entryId={entry.id} label={number ? title : entryTitle(entry) || title} />
        </div>
      </EntryBar>

      <div className="entry-body">
        <div className="entry-main">
          <FaultList faults={entry.faults} />
          <Tabs
            label="Entry"
            idPrefix="entry"
            active={tab}
            onSelect={setTab}
            tabs={[
              { key: 'document', label: 'Document' },
              { key: 'json', label: 'JSON' },
              { key: 'files', label: 'Files', count: entry.attachments.length },
              { key: 'jobs', label: 'Jobs' },
              { key: 'meta', label: 'Meta', count: entry.meta.length },
              { key: 'history', label: 'History' },
            ]}
          />
          <TabPanel idPrefix="entry" active={tab}>
            {tab === 'document' && <DocumentView entry={entry} />}
            {tab === 'json' && <JsonView value={entry.data} label="Envelope JSON" expandDepth={jsonDepth(entry.data)} />}
            {tab === 'files' && <AttachmentsPanel entry={entry} fileId={fileId} onSelect={(id) => navigate({ screen: 'entries', entryId, tab: 'files', fileId: id }, { replace: true })} />}
            {tab === 'jobs' && <EntryJobs entryId={entry.id} onRun={() => setRunning(true)} />}
            {tab === 'meta' && <MetaList meta={entry.meta} />}
            {tab === 'history' && <HistoryPanel entry={entry} onRestored={show} />}
          </TabPanel>
        </div>
        <aside className="entry-side" aria-label="Entry properties">
          {/* The answer of a PATCH shows at once; the list and the folder counts follow by invalidation. */}
          <EntryProperties key={entry.version} entry={entry} onSaved={show} />
          <RelatedEntries entryId={entry.id} />
        </aside>
      </div>
      <RunWorkflowDialog open={running} count={1} resolve={async () => [entry]} onClose={() => setRunning(false)} />
      <CreditNoteDialog entry={entry} open={crediting} onClose={() => setCrediting(false)} />
    </section>
  );
}

/** Documents are read whole: all open, unless one is so large that folding keeps the page quick. */
const jsonDepth = (data: unknown): number => (JSON.stringify(data ?? null).length < 200_000 ? Number.POSITIVE_INFINITY : 3);

function EntryBar({ onClose, position, children }: { onClose(): void; position?: { index: number; count: number }; children?: ReactNode }) {
  return (
    <header className="entry-bar">
      <button type="button" className="btn btn-ghost" onClick={onClose} title="Back to the list (Esc)">
        <Icon name="left" /> Entries
      </button>
      {position && (
        <span className="muted entry-position" title="j / k: next and previous">
          {formatCount(position.index + 1)} of {formatCount(position.count)}
        </span>
      )}
      {children}
    </header>
  );
}
