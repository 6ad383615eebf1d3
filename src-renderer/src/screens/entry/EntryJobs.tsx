import { routeHref } from '../../app/routes.ts';
import { useApiQuery } from '../../data/queries.ts';
import { formatDateTime, formatDuration } from '../../format/date.ts';
import { EmptyState } from '../../ui/EmptyState.tsx';
import { ErrorNotice } from '../../ui/ErrorNotice.tsx';
import { JobStatusBadge } from '../../ui/StatusBadge.tsx';
import { pollWhileRunning, useJobEnds } from '../jobs/useJobEnds.ts';
import { useWorkflows } from '../jobs/useWorkflowNames.ts';

/** The jobs that ran (or run) on this entry, newest first; refreshed while one is unfinished. */
export function EntryJobs({ entryId, onRun }: { entryId: string; onRun(): void }) {
  const jobs = useApiQuery('listJobs', { query: { silo_entry_id: entryId, limit: 50 } }, { refetchInterval: (q) => pollWhileRunning(q.state.data?.list) });
  const { byId } = useWorkflows();
  const list = jobs.data?.list ?? [];
  useJobEnds(jobs.data?.list);

  if (jobs.data && list.length === 0) {
    return (
      <EmptyState icon="flow" title="No job ran on this entry" actions={<button type="button" className="btn" onClick={onRun}>Run a workflow…</button>}>
        Workflows number, sign, render and file documents.
      </EmptyState>
    );
  }
  return (
    <>
      <ErrorNotice error={jobs.error} />
      <table className="data-table">
        <caption className="visually-hidden">Jobs on this entry</caption>
        <thead>
          <tr>
            <th scope="col">Workflow</th>
            <th scope="col">Status</th>
            <th scope="col">Started</th>
            <th scope="col">Took</th>
          </tr>
        </thead>
        <tbody>
          {list.map((job) => (
            <tr key={job.id}>
              <td>
                <a href={routeHref({ screen: 'jobs', jobId: job.id })}>{byId.get(job.workflow_id)?.name ?? job.workflow_id}</a>
              </td>
              <td>
                <JobStatusBadge status={job.status} />
              </td>
              <td>{formatDateTime(job.created_at)}</td>
              <td>{job.completed_at ? formatDuration(job.created_at, job.completed_at) : '…'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
