import { useState } from 'react';
import { useApi } from '../../app/ApiContext.tsx';
import { entryHref } from '../../app/routes.ts';
import { useApiQuery } from '../../data/queries.ts';
import { formatDateTime, formatRelative } from '../../format/date.ts';
import { ErrorNotice } from '../../ui/ErrorNotice.tsx';
import { useToast } from '../../ui/Toasts.tsx';
import type { ParkedChange } from './SyncStatusProvider.tsx';

/** Changes refused as invalid (by the remote, or here), set aside so the rest could sync. */
export function ParkedList() {
  // Fetched again when the status's count moves (SyncStatusProvider) or a change is retried.
  const query = useApiQuery('listParkedChanges');
  const list = query.data?.list ?? [];
  return (
    <section className="card" aria-labelledby="sync-parked-title">
      <div className="card-header">
        <h2 id="sync-parked-title">Parked changes</h2>
      </div>
      <div className="card-body">
        <ErrorNotice error={query.error} onRetry={() => void query.refetch()} />
        {query.data && list.length === 0 && <p className="muted">None. A change the other side refuses as invalid waits here, so the rest can sync.</p>}
        {list.length > 0 && (
          <ul className="sync-list">
            {list.map((item) => (
              <ParkedItem key={item.id} item={item} />
            ))}
          </ul>
        )}
      </div>
    </section>
  );
}

function ParkedItem({ item }: { item: ParkedChange }) {
  const api = useApi();
  const notify = useToast();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  const fields = Object.entries(item.error.fields ?? {});

  async function retry() {
    setBusy(true);
    setError(undefined);
    try {
      await api.retryParkedChange({ params: { id: item.id } });
      notify('Back in line for the next sync');
    } catch (err) {
      setError(err);
      setBusy(false);
    }
  }

  const label = `${item.kind} ${item.record_id}`;
  return (
    <li className="sync-item" aria-label={`Parked ${label}`}>
      <div className="sync-item-main">
        <div className="sync-item-title">
          <span className="badge">{item.kind}</span>
          <span className={`badge ${item.direction === 'push' ? 'tone-info' : 'tone-warn'}`}>{item.direction === 'push' ? 'refused by the remote' : 'refused here'}</span>
          {item.kind === 'entry' ? (
            <a href={entryHref(item.record_id)} className="mono ellipsis">
              {item.record_id}
            </a>
          ) : (
            <code className="ellipsis">{item.record_id}</code>
          )}
        </div>
        <p className="sync-item-error">{item.error.message}</p>
        {fields.length > 0 && (
          <ul className="sync-fields">
            {fields.map(([path, message]) => (
              <li key={path}>
                <code>{path}</code> {message}
              </li>
            ))}
          </ul>
        )}
        <p className="muted sync-item-meta">
          Version {item.version} · parked{' '}
          <time dateTime={item.parked_at} title={formatDateTime(item.parked_at)}>
            {formatRelative(item.parked_at)}
          </time>
        </p>
        <ErrorNotice error={error} />
      </div>
      <div className="sync-item-actions">
        <button type="button" className="btn btn-sm" disabled={busy} onClick={retry} aria-label={`Retry ${label}`}>
          Retry
        </button>
      </div>
    </li>
  );
}
