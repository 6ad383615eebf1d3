import type { Job } from '../../api/types.ts';
import { useApi } from '../../app/ApiContext.tsx';
import { entryHref, routeHref } from '../../app/routes.ts';
import { formatDateTime, formatDuration, formatTime } from '../../format/date.ts';
import { ErrorNotice } from '../../ui/ErrorNotice.tsx';
import { JobStatusBadge } from '../../ui/StatusBadge.tsx';
import { useToast } from '../../ui/Toasts.tsx';
import { useEntryNames } from './useEntryNames.ts';
import { jobFinished } from './useLiveJob.ts';
import { useState } from 'react';

interface JobDetailProps {
  job: Job;
  workflowName?: string;
  error?: unknown;
  onChange(job: Job): void;
  /** leave out the header (when a dialog already names the job) */
  compact?: boolean;
}

/** A job as it runs: each step (intent) with its events, faults, and the files it made. */
export function JobDetail({ job, workflowName, error, onChange, compact }: JobDetailProps) {
  const api = useApi();
  const notify = useToast();
  const [cancelling, setCancelling] = useState(false);
  const finished = jobFinished(job);
  const entryName = useEntryNames([job.silo_entry_id]).get(job.silo_entry_id);

  async function cancel() {
    setCancelling(true);
    try {
      onChange(await api.cancelJob({ params: { id: job.id } }));
      notify('Cancel requested: the job ends after the step now running');
    } catch (err) {
      notify(`Could not cancel: ${(err as Error).message}`, { kind: 'error' });
    } finally {
      setCancelling(false);
    }
  }

  return (
    <div className="job-detail" aria-live="polite" aria-busy={!finished}>
      {!compact && (
        <div className="job-head">
          <div>
            <h2>
              {workflowName ?? 'Workflow'} <JobStatusBadge status={job.status} />
            </h2>
            <p className="muted">
              Job <span className="mono">{job.id}</span> · started {formatDateTime(job.created_at)}
              {job.completed_at ? ` · took ${formatDuration(job.created_at, job.completed_at)}` : ''}
            </p>
          </div>
          {!finished && (
            <button type="button" className="btn btn-danger" onClick={cancel} disabled={cancelling}>
              Cancel job
            </button>
          )}
        </div>
      )}
      {compact && (
        <p className="job-compact-status">
          <JobStatusBadge status={job.status} />{' '}
          {finished ? `Finished in ${formatDuration(job.created_at, job.completed_at)}` : 'Running…'}
        </p>
      )}
      <dl className="kv job-facts">
        <dt>Entry</dt>
        <dd>
          <a href={entryHref(job.silo_entry_id)} title={entryName?.title}>
            {entryName?.label ?? job.silo_entry_id}
          </a>
        </dd>
        <dt>Workflow</dt>
        <dd>
          <a href={routeHref({ screen: 'workflows', workflowId: job.workflow_id })}>{workflowName ?? job.workflow_id}</a>{' '}
          <span className="muted">version {job.workflow_version}</span>
        </dd>
        {job.tags.length > 0 && (
          <>
            <dt>Tags</dt>
            <dd>{job.tags.join(', ')}</dd>
          </>
        )}
      </dl>
      <ErrorNotice error={error} />

      <h3 className="section-title">Steps</h3>
      {job.intents.length === 0 ? (
        <p className="muted">{finished ? 'No step ran.' : 'Waiting for the first step…'}</p>
      ) : (
        <ol className="intents">
          {job.intents.map((intent) => {
            const last = intent.events[intent.events.length - 1];
            return (
              <li key={intent.id} className="intent">
                <div className="intent-head">
                  <strong>{intent.name || intent.provider}</strong>
                  <span className="muted mono">{intent.provider}</span>
                  {last && <JobStatusBadge status={last.status} live={!finished} />}
                </div>
                <ol className="events">
                  {intent.events.map((event, i) => (
                    <li key={event.index}>
                      <time dateTime={event.at} className="muted nowrap">
                        {formatTime(event.at)}
                      </time>
                      <JobStatusBadge status={event.status} live={!finished && i === intent.events.length - 1} />
                      {event.code && <code>{event.code}</code>}
                      {event.message && <span>{event.message}</span>}
                    </li>
                  ))}
                </ol>
              </li>
            );
          })}
        </ol>
      )}

      {job.faults.length > 0 && (
        <>
          <h3 className="section-title">Faults</h3>
          <ul className="fault-list">
            {job.faults.map((f, i) => (
              <li key={i}>
                <code>{f.code}</code> {f.message}
                {f.paths.length > 0 && <span className="muted mono"> at {f.paths.join(', ')}</span>}
                <span className="muted"> ({f.provider})</span>
              </li>
            ))}
          </ul>
        </>
      )}

      {job.attachments.length > 0 && (
        <>
          <h3 className="section-title">Files made</h3>
          <ul className="plain-list">
            {job.attachments.map((a) => (
              <li key={a.id}>
                <a href={entryHref(job.silo_entry_id, 'files', a.id)}>{a.name}</a> <span className="muted">{a.mime}</span>
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}
