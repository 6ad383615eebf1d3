import { useMemo, useState, type FormEvent } from 'react';
import type { Provider, Workflow } from '../../api/types.ts';
import { useApi } from '../../app/ApiContext.tsx';
import { navigate } from '../../app/routes.ts';
import { formatDateTime } from '../../format/date.ts';
import { ErrorNotice, fieldError } from '../../ui/ErrorNotice.tsx';
import { Field } from '../../ui/Field.tsx';
import { Icon } from '../../ui/Icon.tsx';
import { useToast } from '../../ui/Toasts.tsx';
import { draftOf, emptyDraft, newStep, workflowBody, type StepDraft, type WorkflowDraft } from './draft.ts';
import { StepEditor } from './StepEditor.tsx';

interface WorkflowEditorProps {
  /** undefined for a new workflow */
  workflow?: Workflow;
  providers: Provider[];
  onSaved(workflow: Workflow): void;
}

/** Creates or edits a workflow. Saving an existing one makes a new version; jobs keep the version they ran. */
export function WorkflowEditor({ workflow, providers, onSaved }: WorkflowEditorProps) {
  const api = useApi();
  const notify = useToast();
  const initial = useMemo(() => (workflow ? draftOf(workflow) : emptyDraft()), [workflow]);
  const [draft, setDraft] = useState<WorkflowDraft>(initial);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<unknown>();
  const dirty = JSON.stringify(draft) !== JSON.stringify(initial);
  const errorAt = (path: string) => fieldError(error, path);

  const targets = [
    ...draft.steps.map((step, i) => ({ step, label: `Step ${i + 1}${step.name ? `: ${step.name}` : step.provider ? ` (${step.provider})` : ''}` })),
    ...draft.rescue.map((step, i) => ({ step, label: `Rescue ${i + 1}${step.name ? `: ${step.name}` : step.provider ? ` (${step.provider})` : ''}` })),
  ];

  function updateList(list: 'steps' | 'rescue', change: (steps: StepDraft[]) => StepDraft[]) {
    setDraft((d) => ({ ...d, [list]: change(d[list]) }));
  }

  async function save(event: FormEvent) {
    event.preventDefault();
    setSaving(true);
    setError(undefined);
    try {
      const body = workflowBody(draft);
      const saved = workflow
        ? await api.patchWorkflow({ params: { id: workflow.id }, body })
        : await api.putWorkflow({ params: { id: crypto.randomUUID() }, body });
      notify(workflow ? `Saved ${saved.name} (version ${saved.version})` : `Created ${saved.name}`, { kind: 'success' });
      onSaved(saved);
      if (!workflow) navigate({ screen: 'workflows', workflowId: saved.id }, { replace: true });
    } catch (err) {
      setError(err);
    } finally {
      setSaving(false);
    }
  }

  const stepList = (list: 'steps' | 'rescue') => (
    <ol className="step-list">
      {draft[list].map((step, index) => (
        <StepEditor
          key={step.id}
          step={step}
          index={index}
          count={draft[list].length}
          list={list}
          providers={providers}
          targets={targets}
          errorAt={errorAt}
          onChange={(next) => updateList(list, (steps) => steps.map((s) => (s.id === step.id ? next : s)))}
          onRemove={() => updateList(list, (steps) => steps.filter((s) => s.id !== step.id))}
          onMove={(delta) =>
            updateList(list, (steps) => {
              const copy = [...steps];
              const [moved] = copy.splice(index, 1);
              copy.splice(index + delta, 0, moved);
              return copy;
            })
          }
        />
      ))}
    </ol>
  );

  return (
    <form className="workflow-editor" onSubmit={save} aria-labelledby="workflow-editor-title">
      <div className="editor-head">
        <div>
          <h1 id="workflow-editor-title">{workflow ? workflow.name : 'New workflow'}</h1>
          {workflow && (
            <p className="muted">
              Version {workflow.version} · updated {formatDateTime(workflow.updated_at)}
            </p>
          )}
        </div>
        <div className="form-actions">
          {dirty && <span className="muted">Unsaved changes</span>}
          {dirty && (
            <button type="button" className="btn btn-ghost" onClick={() => setDraft(initial)}>
              Discard
            </button>
          )}
          <button type="submit" className="btn btn-primary" disabled={saving || (!dirty && !!workflow)}>
            {saving ? 'Saving…' : workflow ? 'Save' : 'Create workflow'}
          </button>
        </div>
      </div>

      <ErrorNotice error={error} />

      <div className="form-grid">
        <Field label="Name" error={errorAt('$.name')}>
          {(a11y) => <input {...a11y} className="input" value={draft.name} required onChange={(event) => setDraft({ ...draft, name: event.target.value })} />}
        </Field>
        <Field label="Only for documents of schema (optional)" error={errorAt('$.schema')} hint="e.g. bill/invoice; empty runs on anything">
          {(a11y) => <input {...a11y} className="input" value={draft.schema} onChange={(event) => setDraft({ ...draft, schema: event.target.value })} />}
        </Field>
        <div className="field">
          <span className="field-label">Availability</span>
          <label className="check">
            <input type="checkbox" checked={draft.disabled} onChange={(event) => setDraft({ ...draft, disabled: event.target.checked })} />
            Disabled (cannot be run)
          </label>
        </div>
      </div>
      <Field label="Description (optional)" error={errorAt('$.description')}>
        {(a11y) => <textarea {...a11y} className="textarea prose" rows={2} value={draft.description} onChange={(event) => setDraft({ ...draft, description: event.target.value })} />}
      </Field>

      <section aria-labelledby="steps-title" className="step-section">
        <div className="section-head">
          <h2 id="steps-title">Steps</h2>
          <p className="muted">Run in order; routing can jump ahead or stop.</p>
        </div>
        {errorAt('$.steps') && <p className="field-error">{errorAt('$.steps')}</p>}
        {stepList('steps')}
        <button type="button" className="btn" onClick={() => updateList('steps', (s) => [...s, newStep()])}>
          <Icon name="plus" /> Add a step
        </button>
      </section>

      <section aria-labelledby="rescue-title" className="step-section">
        <div className="section-head">
          <h2 id="rescue-title">Rescue steps</h2>
          <p className="muted">Run once when a step fails (KO or timeout) with no route for it; the job still ends KO.</p>
        </div>
        {draft.rescue.length > 0 && stepList('rescue')}
        <button type="button" className="btn" onClick={() => updateList('rescue', (s) => [...s, newStep()])}>
          <Icon name="plus" /> Add a rescue step
        </button>
      </section>
    </form>
  );
}
