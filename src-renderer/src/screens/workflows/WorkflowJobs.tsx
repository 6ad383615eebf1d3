import { entryHref, routeHref } from '../../app/routes.ts';
import { useApiQuery } from '../../data/queries.ts';
import { formatDateTime } from '../../format/date.ts';
import { JobStatusBadge } from '../../ui/StatusBadge.tsx';

/** The latest jobs of a workflow, under its editor. */
export function WorkflowJobs({ workflowId }: { workflowId: string }) {
  const jobs = useApiQuery('listJobs', { query: { workflow_id: workflowId, limit: 10 } });
  const list = jobs.data?.list ?? [];
  return (
    <section className="workflow-jobs" aria-labelledby="workflow-jobs-title">
      <div className="section-head">
        <h2 id="workflow-jobs-title">Latest jobs</h2>
        <a href={routeHref({ screen: 'jobs' })}>All jobs</a>
      </div>
      {jobs.data && list.length === 0 ? (
        <p className="muted">Not run yet. Select entries in the list and choose “Run workflow…”.</p>
      ) : (
        <table className="data-table">
          <caption className="visually-hidden">Latest jobs of this workflow</caption>
          <thead>
            <tr>
              <th scope="col">Started</th>
              <th scope="col">Status</th>
              <th scope="col">Entry</th>
            </tr>
          </thead>
          <tbody>
            {list.map((job) => (
              <tr key={job.id}>
                <td>
                  <a href={routeHref({ screen: 'jobs', jobId: job.id })}>{formatDateTime(job.created_at)}</a>
                </td>
                <td>
                  <JobStatusBadge status={job.status} />
                </td>
                <td>
                  <a href={entryHref(job.silo_entry_id)} className="mono">
                    {job.silo_entry_id.slice(0, 8)}…
                  </a>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
