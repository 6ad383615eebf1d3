import { useApiQuery } from '../../data/queries.ts';
import { formatDateTime, formatRelative } from '../../format/date.ts';
import { ErrorNotice } from '../../ui/ErrorNotice.tsx';
import { JsonView } from '../../ui/JsonView.tsx';

/**
 * Series entries found at an index this side already holds: the issuer numbered
 * twice (a restored or copied data folder that numbered before it caught up).
 * Both chains are kept; numbering that series waits until the owner has sorted it out.
 */
export function ForkList({ count }: { count: number }) {
  // Fetched again when the status's count moves (SyncStatusProvider) or sync writes.
  const query = useApiQuery('listSyncForks');
  const list = query.data?.list ?? [];
  if (count === 0 && list.length === 0) return null;
  return (
    <section className="card" aria-labelledby="sync-forks-title">
      <div className="card-header">
        <h2 id="sync-forks-title">Forked numbering</h2>
        {list.length > 0 && <span className="badge tone-bad">{list.length}</span>}
      </div>
      <div className="card-body">
        <ErrorNotice error={query.error} onRetry={() => void query.refetch()} />
        <p className="muted">
          The same number was issued twice in a series. Both entries are kept: this side's in its chain, the other one below. The series
          issues no more numbers until its owner has sorted it out (for example by voiding one invoice) and released it.
        </p>
        <ul className="sync-list">
          {list.map((fork) => (
            <li key={fork.id} className="sync-item" aria-label={`Fork at index ${fork.index}`}>
              <div className="sync-item-main">
                <div className="sync-item-title">
                  <span className="badge tone-bad">index {fork.index}</span>
                  <code className="ellipsis">{(fork.other as { code?: string }).code ?? fork.other_entry_id}</code>
                </div>
                <p className="muted sync-item-meta">
                  Series <code>{fork.series_id.slice(0, 8)}</code> · here: <code>{fork.local_entry_id?.slice(0, 8) ?? 'none'}</code> · other:{' '}
                  <code>{fork.other_entry_id.slice(0, 8)}</code> ({fork.direction === 'pull' ? 'from the remote' : 'pushed to this instance'}) ·{' '}
                  <time dateTime={fork.detected_at} title={formatDateTime(fork.detected_at)}>
                    {formatRelative(fork.detected_at)}
                  </time>
                </p>
                <JsonView value={fork.other} expandDepth={0} label="The other entry" />
              </div>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
