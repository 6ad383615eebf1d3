import { useState } from 'react';
import { useApi } from '../../app/ApiContext.tsx';
import { useApiQuery, useShowAnswer } from '../../data/queries.ts';
import { formatDateTime, formatRelative } from '../../format/date.ts';
import { formatCount } from '../../format/count.ts';
import { ErrorNotice } from '../../ui/ErrorNotice.tsx';
import { Loading } from '../../ui/EmptyState.tsx';
import { useToast } from '../../ui/Toasts.tsx';
import { ApiClientError } from '../../api/errors.ts';
import { ConflictList } from './ConflictList.tsx';
import { ForkList } from './ForkList.tsx';
import { describeSync, progressLine } from './describe.ts';
import { ParkedList } from './ParkedList.tsx';
import { SyncSettingsForm } from './SyncSettingsForm.tsx';
import { useSyncStatus } from './SyncStatusProvider.tsx';
import './sync.css';

export function SyncScreen() {
  const settings = useApiQuery('getSyncSettings');
  const showSettings = useShowAnswer('getSyncSettings');
  const { status } = useSyncStatus();
  // Where the company syncs, and with which token, is the owner's business alone.
  const ownerOnly = settings.error instanceof ApiClientError && settings.error.key === 'forbidden';
  const configured = settings.data?.configured ?? status?.configured ?? false;
  return (
    <section className="screen" aria-label="Sync">
      <div className="screen-scroll">
        <div className="page sync-page">
          <div className="page-header">
            <div>
              <h1>Sync</h1>
              <p>Keep this company in step with another Silodesk: an office server, or a colleague's install.</p>
            </div>
          </div>
          {configured && status && <SyncRunCard />}
          <section className="card" aria-labelledby="sync-remote-title">
            <div className="card-header">
              <h2 id="sync-remote-title">Remote</h2>
            </div>
            <div className="card-body">
              {ownerOnly ? (
                <p className="muted">Only the company's owner sees and changes where this company syncs.</p>
              ) : (
                <ErrorNotice error={settings.error} onRetry={() => void settings.refetch()} />
              )}
              {settings.data ? (
                <SyncSettingsForm
                  key={`${settings.data.remote_url}/${settings.data.has_token}/${settings.data.interval_minutes}/${settings.data.paused}`}
                  current={settings.data}
                  onSaved={showSettings}
                />
              ) : (
                !settings.error && <Loading />
              )}
            </div>
          </section>
          {configured && status && (
            <>
              <ConflictList />
              <ForkList count={status.forks} />
              <ParkedList />
            </>
          )}
        </div>
      </div>
    </section>
  );
}

function SyncRunCard() {
  const api = useApi();
  const notify = useToast();
  const { status, setStatus } = useSyncStatus();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  if (!status) return null;
  const { label, tone, detail } = describeSync(status);
  const progress = status.running ? status.progress : undefined;

  async function run(allowMassDeletion = false) {
    setBusy(true);
    setError(undefined);
    try {
      setStatus(await api.startSync({ query: { wait: 0, allow_mass_deletion: allowMassDeletion } }));
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }

  async function cancel() {
    setError(undefined);
    try {
      setStatus(await api.cancelSync());
      notify('Sync cancelled; the next one resumes where it stopped');
    } catch (err) {
      setError(err);
    }
  }

  return (
    <section className="card" aria-labelledby="sync-status-title">
      <div className="card-header">
        <h2 id="sync-status-title">Status</h2>
        <div className="form-actions">
          {status.running ? (
            <button type="button" className="btn" onClick={cancel}>
              Cancel
            </button>
          ) : null}
          <button type="button" className="btn btn-primary" onClick={() => run()} disabled={busy || status.running}>
            {status.running ? 'Syncing…' : 'Sync now'}
          </button>
        </div>
      </div>
      <div className="card-body sync-status-body">
        <div className="sync-state-line" role="status" aria-live="polite">
          <span className={`badge tone-${tone}`} data-testid="sync-state" data-state={status.state}>
            {label}
          </span>
          <span className="muted">{status.running ? progressLine(status) || detail : detail}</span>
        </div>
        {progress && (
          <div className="sync-progress">
            <progress
              max={Math.max(progress.pending_at_start, 1)}
              value={progress.phase === 'push' ? progress.pushed : progress.phase === 'connect' ? 0 : Math.max(progress.pending_at_start, 1)}
              aria-label="Sync progress"
            />
          </div>
        )}
        <dl className="kv sync-facts">
          <dt>Pending</dt>
          <dd>{formatCount(status.pending)} local changes not yet sent</dd>
          <dt>Conflicts</dt>
          <dd>{formatCount(status.conflicts)}</dd>
          <dt>Parked</dt>
          <dd>{formatCount(status.parked)}</dd>
          {status.forks > 0 && (
            <>
              <dt>Forks</dt>
              <dd>{formatCount(status.forks)} series entries numbered twice</dd>
            </>
          )}
          {status.held_series > 0 && (
            <>
              <dt>Numbering on hold</dt>
              <dd>{formatCount(status.held_series)} series, until this instance has caught up with the remote</dd>
            </>
          )}
          <dt>Last success</dt>
          <dd>
            {status.last_success_at ? (
              <time dateTime={status.last_success_at} title={formatDateTime(status.last_success_at)}>
                {formatRelative(status.last_success_at)}
              </time>
            ) : (
              'Never'
            )}
          </dd>
          {status.last_error && (
            <>
              <dt>Last error</dt>
              <dd className="sync-last-error">
                <span className="badge tone-bad">{status.last_error.kind}</span> {status.last_error.message}{' '}
                <time className="muted" dateTime={status.last_error.at} title={formatDateTime(status.last_error.at)}>
                  ({formatRelative(status.last_error.at)})
                </time>
              </dd>
            </>
          )}
        </dl>
        {status.last_error?.kind === 'refused' && status.last_error.message.includes('would delete') && !status.running && (
          <div className="notice notice-warning">
            <div className="notice-body">
              <p>The remote would delete more than half of this company's entries, so nothing was applied. If that is expected, sync once more and allow it.</p>
            </div>
            <button type="button" className="btn btn-sm btn-danger" onClick={() => run(true)} disabled={busy}>
              Sync and apply the deletions
            </button>
          </div>
        )}
        <ErrorNotice error={error} />
      </div>
    </section>
  );
}
