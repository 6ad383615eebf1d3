import { useState } from 'react';
import { useApi } from '../../app/ApiContext.tsx';
import { entryHref } from '../../app/routes.ts';
import { useApiQuery } from '../../data/queries.ts';
import { formatDateTime, formatRelative } from '../../format/date.ts';
import { plural } from '../../format/count.ts';
import { ErrorNotice } from '../../ui/ErrorNotice.tsx';
import { JsonView } from '../../ui/JsonView.tsx';
import { useToast } from '../../ui/Toasts.tsx';
import { KeyClashItem } from './KeyClashItem.tsx';
import type { SyncConflict } from './SyncStatusProvider.tsx';

/** Records both sides changed: the remote's version won; mine is kept aside until someone decides. */
export function ConflictList() {
  // Fetched again when the status's count moves (SyncStatusProvider) or a conflict is resolved.
  const query = useApiQuery('listSyncConflicts');
  const list = query.data?.list ?? [];
  return (
    <section className="card" aria-labelledby="sync-conflicts-title">
      <div className="card-header">
        <h2 id="sync-conflicts-title">Conflicts</h2>
        {list.length > 0 && <span className="badge tone-warn">{plural(list.length, 'to resolve', 'to resolve')}</span>}
      </div>
      <div className="card-body">
        <ErrorNotice error={query.error} onRetry={() => void query.refetch()} />
        {query.data && list.length === 0 && <p className="muted">No conflicts. When this company and the remote both change the same record, it is listed here.</p>}
        {list.length > 0 && (
          <>
            <p className="muted">
              The remote's version is the one in use. Keep it (your version moves to the trash), or keep yours (it is sent again as a new
              change, and the remote's version moves to the trash). Nothing is deleted.
            </p>
            <ul className="sync-list">
              {list.map((conflict) =>
                conflict.reason === 'key-clash' ? (
                  <KeyClashItem key={conflict.id} conflict={conflict} />
                ) : (
                  <ConflictItem key={conflict.id} conflict={conflict} />
                ),
              )}
            </ul>
          </>
        )}
      </div>
    </section>
  );
}

function ConflictItem({ conflict }: { conflict: SyncConflict }) {
  const api = useApi();
  const notify = useToast();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  const [open, setOpen] = useState(false);
  const isEntry = conflict.kind === 'entry';

  async function resolve(keep: 'remote' | 'mine') {
    setBusy(true);
    setError(undefined);
    try {
      await api.resolveSyncConflict({ params: { id: conflict.id }, body: { keep } });
      notify(keep === 'remote' ? "Kept the remote's version; yours is in the trash" : "Kept your version; it goes out with the next sync, and the remote's is in the trash", { kind: 'success' });
    } catch (err) {
      setError(err);
      setBusy(false);
    }
  }

  const label = `${conflict.kind} ${conflict.record_id}`;
  return (
    <li className="sync-item" aria-label={`Conflict on ${label}`}>
      <div className="sync-item-main">
        <div className="sync-item-title">
          <span className="badge">{conflict.kind}</span>
          {isEntry ? (
            <a href={entryHref(conflict.record_id)} className="mono ellipsis" title="Open the version in use (the remote's)">
              {conflict.record_id}
            </a>
          ) : (
            <code className="ellipsis">{conflict.record_id}</code>
          )}
        </div>
        <p className="muted sync-item-meta">
          Winner: remote version {conflict.remote_version} (from instance <code>{conflict.remote_origin.slice(0, 8)}</code>) · yours: version {conflict.local_version}
          {conflict.loser === null ? ' (you had deleted it)' : ''} ·{' '}
          <time dateTime={conflict.created_at} title={formatDateTime(conflict.created_at)}>
            {formatRelative(conflict.created_at)}
          </time>
          {conflict.copy_entry_id && (
            <>
              {' · '}
              <a href={entryHref(conflict.copy_entry_id)}>Your version, kept as a conflict copy</a>
            </>
          )}
        </p>
        <button type="button" className="link-btn" aria-expanded={open} onClick={() => setOpen((o) => !o)}>
          {open ? 'Hide both versions' : 'Compare both versions'}
        </button>
        {open && <ConflictCompare conflict={conflict} />}
        <ErrorNotice error={error} />
      </div>
      <div className="sync-item-actions">
        <button type="button" className="btn btn-sm" disabled={busy} onClick={() => resolve('remote')} aria-label={`Keep remote for ${label}`}>
          Keep remote
        </button>
        <button type="button" className="btn btn-sm" disabled={busy} onClick={() => resolve('mine')} aria-label={`Keep mine for ${label}`}>
          Keep mine
        </button>
      </div>
    </li>
  );
}

/** Side by side: the version in use (the remote's, as this instance now holds it) and mine. */
function ConflictCompare({ conflict }: { conflict: SyncConflict }) {
  const current = useApiQuery('getSyncRecord', { params: { kind: conflict.kind, id: conflict.record_id } });
  return (
    <div className="sync-compare">
      <div>
        <h3 className="section-title">Remote (in use)</h3>
        <ErrorNotice error={current.error} />
        {current.data &&
          (current.data.deleted ? <p className="muted">Deleted on the remote.</p> : <JsonView value={current.data.record} expandDepth={1} label="Remote version" />)}
      </div>
      <div>
        <h3 className="section-title">Mine</h3>
        {conflict.loser === null ? <p className="muted">You had deleted it.</p> : <JsonView value={conflict.loser} expandDepth={1} label="My version" />}
      </div>
    </div>
  );
}
