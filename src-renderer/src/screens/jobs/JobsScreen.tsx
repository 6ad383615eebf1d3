import { useMemo, useState } from 'react';
import { entryHref, routeHref } from '../../app/routes.ts';
import { cursorPages, rowsOf, usePages } from '../../data/queries.ts';
import { formatDateTime, formatDuration } from '../../format/date.ts';
import { EmptyState, Loading } from '../../ui/EmptyState.tsx';
import { ErrorNotice } from '../../ui/ErrorNotice.tsx';
import { Icon } from '../../ui/Icon.tsx';
import { JobStatusBadge } from '../../ui/StatusBadge.tsx';
import { JobDetail } from './JobDetail.tsx';
import { entryLabel, useEntryNames } from './useEntryNames.ts';
import { pollWhileRunning, useJobEnds } from './useJobEnds.ts';
import { useLiveJob } from './useLiveJob.ts';
import { useWorkflows } from './useWorkflowNames.ts';
import './jobs.css';

const STATUSES = [
  { value: '', label: 'All' },
  { value: 'RUN', label: 'Running' },
  { value: 'QUEUED', label: 'Queued' },
  { value: 'ERR', label: 'Retrying' },
  { value: 'OK', label: 'OK' },
  { value: 'KO', label: 'Failed' },
] as const;
type StatusFilter = (typeof STATUSES)[number]['value'];

export function JobsScreen({ jobId }: { jobId?: string }) {
  return <section className="screen" aria-label="Jobs">{jobId ? <JobPage jobId={jobId} /> : <JobList />}</section>;
}

/** Every job, newest first, by status and workflow; refreshed while any shown is still running. */
function JobList() {
  const { workflows, byId } = useWorkflows();
  const [status, setStatus] = useState<StatusFilter>('');
  const [workflowId, setWorkflowId] = useState('');
  const pages = usePages(cursorPages('listJobs', { query: { status: status || undefined, workflow_id: workflowId || undefined, limit: 50 } }), {
    keepShown: true,
    refetchInterval: (data) => pollWhileRunning(data && rowsOf(data)),
  });
  const jobs = useMemo(() => (pages.data ? rowsOf(pages.data) : undefined), [pages.data]);
  useJobEnds(jobs);
  const names = useEntryNames((jobs ?? []).map((j) => j.silo_entry_id));

  return (
    <div className="screen-scroll">
      <div className="page">
        <div className="page-header">
          <div>
            <h1>Jobs</h1>
            <p>Every run of a workflow over an entry.</p>
          </div>
        </div>
        <div className="job-filters">
          <div className="segmented" role="radiogroup" aria-label="Status">
            {STATUSES.map((s) => (
              <label key={s.value} className={status === s.value ? 'is-on' : undefined}>
                <input type="radio" name="job-status" value={s.value} checked={status === s.value} onChange={() => setStatus(s.value)} />
                {s.label}
              </label>
            ))}
          </div>
          <div className="filter">
            <label htmlFor="job-workflow">Workflow</label>
            <select id="job-workflow" className="select" value={workflowId} onChange={(event) => setWorkflowId(event.target.value)}>
              <option value="">All workflows</option>
              {(workflows ?? []).map((w) => (
                <option key={w.id} value={w.id}>
                  {w.name}
                </option>
              ))}
            </select>
          </div>
        </div>
        <ErrorNotice error={pages.error} onRetry={() => void pages.refetch()} />
        {!jobs ? (
          <Loading />
        ) : jobs.length === 0 ? (
          <EmptyState icon="clock" title={status || workflowId ? 'No job matches' : 'No jobs yet'}>
            {status || workflowId ? 'Try another status or workflow.' : 'Run a workflow on entries from the entry list (select them, then “Run workflow…”).'}
          </EmptyState>
        ) : (
          <table className="data-table jobs-table">
            <caption className="visually-hidden">Jobs</caption>
            <thead>
              <tr>
                <th scope="col">Started</th>
                <th scope="col">Workflow</th>
                <th scope="col">Status</th>
                <th scope="col">Steps</th>
                <th scope="col">Entry</th>
                <th scope="col">Took</th>
              </tr>
            </thead>
            <tbody>
              {jobs.map((job) => (
                <tr key={job.id}>
                  <td className="nowrap">
                    <a href={routeHref({ screen: 'jobs', jobId: job.id })}>{formatDateTime(job.created_at)}</a>
                  </td>
                  <td>{byId.get(job.workflow_id)?.name ?? <span className="mono">{job.workflow_id.slice(0, 8)}…</span>}</td>
                  <td>
                    <JobStatusBadge status={job.status} />
                  </td>
                  <td>{job.intents.length}</td>
                  <td>
                    <a href={entryHref(job.silo_entry_id)} className={names.has(job.silo_entry_id) ? undefined : 'mono'} title={names.get(job.silo_entry_id)?.title ?? job.silo_entry_id}>
                      {entryLabel(names, job.silo_entry_id)}
                    </a>
                  </td>
                  <td className="nowrap">{job.completed_at ? formatDuration(job.created_at, job.completed_at) : '…'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {pages.hasNextPage && (
          <button type="button" className="btn load-more" disabled={pages.isFetching} onClick={() => void pages.fetchNextPage({ cancelRefetch: false })}>
            Load more
          </button>
        )}
      </div>
    </div>
  );
}

/** One job, live until it ends. */
function JobPage({ jobId }: { jobId: string }) {
  const { job, error, setJob } = useLiveJob(jobId);
  const { byId } = useWorkflows();
  return (
    <div className="screen-scroll">
      <div className="page">
        <a className="back-link" href={routeHref({ screen: 'jobs' })}>
          <Icon name="left" /> All jobs
        </a>
        {!job ? error ? <ErrorNotice error={error} /> : <Loading label="Loading the job…" /> : <JobDetail job={job} workflowName={byId.get(job.workflow_id)?.name} error={error} onChange={setJob} />}
      </div>
    </div>
  );
}
