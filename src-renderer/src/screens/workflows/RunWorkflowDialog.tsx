import { useState, type FormEvent } from 'react';
import type { Entry, Job } from '../../api/types.ts';
import { useApi } from '../../app/ApiContext.tsx';
import { navigate, routeHref } from '../../app/routes.ts';
import { plural } from '../../format/count.ts';
import { Dialog } from '../../ui/Dialog.tsx';
import { ErrorNotice, errorMessage } from '../../ui/ErrorNotice.tsx';
import { Field } from '../../ui/Field.tsx';
import { useToast } from '../../ui/Toasts.tsx';
import { BulkProgress } from '../entries/BulkProgress.tsx';
import { useBulkRun } from '../entries/bulk.ts';
import type { ResolveTargets } from '../entries/BulkDialogs.tsx';
import { JobDetail } from '../jobs/JobDetail.tsx';
import { useLiveJob } from '../jobs/useLiveJob.ts';
import { useWorkflows } from '../jobs/useWorkflowNames.ts';

interface RunWorkflowDialogProps {
  open: boolean;
  count: number;
  resolve: ResolveTargets;
  onClose(): void;
}

/**
 * Runs a workflow over one entry or many. With one entry the dialog stays open and
 * shows the job live until it ends; with many it starts them all and points to Jobs.
 */
export function RunWorkflowDialog({ open, count, resolve, onClose }: RunWorkflowDialogProps) {
  const api = useApi();
  const notify = useToast();
  const { workflows, byId, error: listError } = useWorkflows();
  const [workflowId, setWorkflowId] = useState('');
  const [error, setError] = useState<unknown>();
  const [started, setStarted] = useState<Job>();
  const run = useBulkRun();
  const live = useLiveJob(started?.id, started);

  const usable = (workflows ?? []).filter((w) => !w.disabled);
  const chosen = workflowId || usable[0]?.id || '';

  function close() {
    if (run.running) run.cancel();
    setStarted(undefined);
    setError(undefined);
    onClose();
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!chosen) return;
    setError(undefined);
    let targets: Entry[];
    try {
      run.setPhase('Finding the entries…');
      targets = await resolve(run.signal(), (n) => run.setPhase('Finding the entries…', 0, n));
    } catch (err) {
      run.cancel();
      if ((err as Error)?.name !== 'AbortError') setError(err);
      return;
    }
    if (targets.length === 1) {
      try {
        const job = await api.createJob({ body: { workflow_id: chosen, silo_entry_id: targets[0].id } });
        run.cancel();
        setStarted(job);
      } catch (err) {
        run.cancel();
        setError(err);
      }
      return;
    }
    const outcome = await run.start('Starting jobs…', targets, (entry) =>
      api.createJob({ body: { workflow_id: chosen, silo_entry_id: entry.id } }),
    );
    const ok = outcome.done - outcome.failures.length;
    notify(
      `Started ${plural(ok, 'job', 'jobs')}${outcome.failures.length ? `; ${outcome.failures.length} failed: ${errorMessage(outcome.failures[0].error)}` : ''}`,
      {
        kind: outcome.failures.length ? 'error' : 'success',
        action: { label: 'View jobs', run: () => navigate({ screen: 'jobs' }) },
      },
    );
    close();
  }

  const job = started ? live.job : undefined;
  return (
    <Dialog
      open={open}
      wide={!!job}
      title={job ? `Running ${byId.get(job.workflow_id)?.name ?? 'workflow'}` : `Run a workflow on ${plural(count, 'entry', 'entries')}`}
      onClose={close}
      footer={
        job ? (
          <>
            <a className="btn" href={routeHref({ screen: 'jobs', jobId: job.id })} onClick={close}>
              Open in Jobs
            </a>
            <button type="button" className="btn btn-primary" onClick={close}>
              Close
            </button>
          </>
        ) : (
          <>
            <button type="button" className="btn" onClick={close}>
              Cancel
            </button>
            <button type="submit" form="run-form" className="btn btn-primary" disabled={!chosen || run.running}>
              Run
            </button>
          </>
        )
      }
    >
      {job ? (
        <JobDetail job={job} workflowName={byId.get(job.workflow_id)?.name} error={live.error} onChange={live.setJob} compact />
      ) : (
        <form id="run-form" onSubmit={submit} className="dialog-form">
          {workflows && usable.length === 0 ? (
            <p className="muted">
              There is no workflow to run yet. <a href={routeHref({ screen: 'workflows', workflowId: 'new' })} onClick={close}>Create one</a> first.
            </p>
          ) : (
            <Field label="Workflow" hint={byId.get(chosen)?.description || undefined}>
              {(a11y) => (
                <select {...a11y} className="select" value={chosen} onChange={(event) => setWorkflowId(event.target.value)}>
                  {usable.map((w) => (
                    <option key={w.id} value={w.id}>
                      {w.name}
                    </option>
                  ))}
                </select>
              )}
            </Field>
          )}
          <BulkProgress run={run} />
          <ErrorNotice error={error ?? listError} />
        </form>
      )}
    </Dialog>
  );
}
