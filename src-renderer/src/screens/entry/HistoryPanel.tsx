import { useMemo, useState } from 'react';
import type { AnswerOf } from '../../api/client.ts';
import type { Entry } from '../../api/types.ts';
import { useApi } from '../../app/ApiContext.tsx';
import { cursorPages, rowsOf, useApiQuery, usePages } from '../../data/queries.ts';
import { formatDateTime } from '../../format/date.ts';
import { Loading } from '../../ui/EmptyState.tsx';
import { ErrorNotice } from '../../ui/ErrorNotice.tsx';
import { Icon } from '../../ui/Icon.tsx';
import { useToast } from '../../ui/Toasts.tsx';
import { viaLabel } from '../trash/via.ts';
import { HistoryDiff } from './HistoryDiff.tsx';
import { actionLabel, changedLabel } from './HistoryLabels.ts';
import './History.css';

type Version = AnswerOf<'listEntryVersions'>['list'][number];

/**
 * Every version of the entry, newest first, with who made it, from where and what it
 * changed; the chosen one's changes against the version before it; and "Restore this
 * version", which makes a new version (history is never rewritten).
 */
export function HistoryPanel({ entry, onRestored }: { entry: Entry; onRestored(entry: Entry): void }) {
  const api = useApi();
  const toast = useToast();
  const pages = usePages(cursorPages('listEntryVersions', { params: { id: entry.id }, query: { limit: 50 } }), { keepShown: true });
  const versions = useMemo(() => (pages.data ? rowsOf(pages.data) : undefined), [pages.data]);
  const current = pages.data?.pages[0]?.version;
  const [chosen, setChosen] = useState<string>();
  const selected = versions?.find((v) => v.version === chosen) ?? versions?.[0];
  const diff = useApiQuery('diffEntryVersions', { params: { id: entry.id, version: selected?.version ?? '1' }, query: {} }, { enabled: !!selected });
  const [restoring, setRestoring] = useState(false);
  const [error, setError] = useState<unknown>();

  const restore = async (version: Version) => {
    setRestoring(true);
    setError(undefined);
    try {
      const next = await api.restoreEntryVersion({ params: { id: entry.id, version: version.version } });
      onRestored(next);
      setChosen(undefined);
      toast(`Version ${version.version} restored as version ${next.version}`, { kind: 'success' });
    } catch (err) {
      setError(err);
    } finally {
      setRestoring(false);
    }
  };

  if (!versions) return pages.error ? <ErrorNotice error={pages.error} onRetry={() => void pages.refetch()} /> : <Loading label="Reading the history…" />;

  return (
    <div className="history">
      <nav className="history-versions" aria-label="Versions">
        <ol>
          {versions.map((v) => (
            <li key={v.version}>
              <button type="button" className="history-version" aria-current={v.version === selected?.version ? 'true' : undefined} onClick={() => setChosen(v.version)}>
                <span className="history-version-head">
                  <strong>Version {v.version}</strong>
                  {v.version === current && <span className="badge tone-info">Current</span>}
                </span>
                <span>{actionLabel(v.action, v.reverted_from)}</span>
                <span className="muted small">
                  {formatDateTime(v.at)} · {v.actor.name} {viaLabel(v.actor.via)}
                </span>
                {v.changed.length > 0 && v.action !== 'created' && (
                  <span className="history-chips">
                    {v.changed.map((c) => (
                      <span key={c} className="chip">
                        {changedLabel(c)}
                      </span>
                    ))}
                  </span>
                )}
              </button>
            </li>
          ))}
        </ol>
        {pages.hasNextPage && (
          <button type="button" className="btn btn-sm load-more" disabled={pages.isFetching} onClick={() => void pages.fetchNextPage({ cancelRefetch: false })}>
            Older versions
          </button>
        )}
      </nav>
      <section className="history-detail" aria-label={selected ? `Version ${selected.version}` : 'Version'}>
        {selected && (
          <header className="history-detail-head">
            <div>
              <h2>
                Version {selected.version}: {actionLabel(selected.action, selected.reverted_from)}
              </h2>
              <p className="muted">
                {formatDateTime(selected.at)} by {selected.actor.name} {viaLabel(selected.actor.via)}
                {diff.data?.from ? ` · compared with version ${diff.data.from.version}` : ''}
              </p>
            </div>
            <button
              type="button"
              className="btn"
              disabled={restoring || selected.version === current || entry.signed && selected.digest.val !== entry.digest.val}
              title={
                selected.version === current
                  ? 'This is the entry as it is now'
                  : entry.signed && selected.digest.val !== entry.digest.val
                    ? 'The entry is signed: its document can no longer change'
                    : 'Make this version the current one (as a new version)'
              }
              onClick={() => void restore(selected)}
            >
              <Icon name="refresh" /> {restoring ? 'Restoring…' : 'Restore this version'}
            </button>
          </header>
        )}
        <ErrorNotice error={error ?? diff.error} />
        {diff.data ? <HistoryDiff changes={diff.data.changes} truncated={diff.data.truncated} /> : !diff.error && <Loading label="Comparing…" />}
      </section>
    </div>
  );
}
