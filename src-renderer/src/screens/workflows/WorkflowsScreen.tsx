import { routeHref } from '../../app/routes.ts';
import { useApiQuery } from '../../data/queries.ts';
import { formatRelative } from '../../format/date.ts';
import { EmptyState, Loading } from '../../ui/EmptyState.tsx';
import { ErrorNotice } from '../../ui/ErrorNotice.tsx';
import { Icon } from '../../ui/Icon.tsx';
import { useWorkflows } from '../jobs/useWorkflowNames.ts';
import { WorkflowJobs } from './WorkflowJobs.tsx';
import { WorkflowEditor } from './WorkflowEditor.tsx';
import './workflows.css';

/** Workflows: the list on the left, the one being edited (or a new one) on the right. */
export function WorkflowsScreen({ workflowId }: { workflowId?: string }) {
  const { workflows, byId, error, loading, complete } = useWorkflows();
  const providers = useApiQuery('listProviders');
  const isNew = workflowId === 'new';
  const current = workflowId && !isNew ? byId.get(workflowId) : undefined;

  return (
    <section className="screen" aria-label="Workflows">
      <div className="split">
        <nav className="split-list" aria-label="Workflow list">
          <div className="split-list-header">
            <h2>Workflows</h2>
            <a className="btn btn-sm btn-primary" href={routeHref({ screen: 'workflows', workflowId: 'new' })}>
              <Icon name="plus" /> New
            </a>
          </div>
          <ErrorNotice error={error} />
          {workflows && workflows.length === 0 && <p className="muted pick-hint">No workflows yet.</p>}
          <ul className="pick-list">
            {(workflows ?? []).map((w) => (
              <li key={w.id}>
                <a href={routeHref({ screen: 'workflows', workflowId: w.id })} aria-current={w.id === workflowId ? 'page' : undefined}>
                  <span className="strong">{w.name}</span>
                  <span className="sub">
                    {w.steps.length} {w.steps.length === 1 ? 'step' : 'steps'} · v{w.version} · {formatRelative(w.updated_at)}
                    {w.disabled && ' · disabled'}
                  </span>
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <div className="split-detail">
          <div className="page">
            <ErrorNotice error={providers.error} />
            {!providers.data || (loading && !workflows) ? (
              <Loading />
            ) : isNew ? (
              <WorkflowEditor key="new" providers={providers.data.list} onSaved={() => {}} />
            ) : current ? (
              <>
                <WorkflowEditor key={`${current.id}/${current.version}`} workflow={current} providers={providers.data.list} onSaved={() => {}} />
                <WorkflowJobs workflowId={current.id} />
              </>
            ) : workflowId && !complete && !error ? (
              <Loading />
            ) : workflowId ? (
              <EmptyState title="Workflow not found">It may have been removed. Pick another from the list.</EmptyState>
            ) : (
              <EmptyState
                icon="flow"
                title={workflows?.length ? 'Pick a workflow' : 'Automate the routine'}
                actions={
                  <a className="btn btn-primary" href={routeHref({ screen: 'workflows', workflowId: 'new' })}>
                    <Icon name="plus" /> New workflow
                  </a>
                }
              >
                A workflow is a list of steps run over an entry: set its state, file it in a folder, number it from a series, sign it, render its PDF.
              </EmptyState>
            )}
          </div>
        </div>
      </div>
    </section>
  );
}
