import type { Step, Workflow } from '../../api/types.ts';

/** Where a route sends the job: a step (by id) or the end. */
export type RouteTarget = { kind: 'step'; stepId: string } | { kind: 'stop' };

export interface RouteDraft {
  key: string;
  /** '' = any outcome */
  status: '' | 'OK' | 'KO' | 'SKIP' | 'TIMEOUT';
  code: string;
  target: RouteTarget;
}

export interface StepDraft {
  id: string;
  name: string;
  provider: string;
  config: Record<string, unknown>;
  notes: string;
  next: RouteDraft[];
}

/** A workflow as the editor holds it: plain values, every step with an id so routes can name it. */
export interface WorkflowDraft {
  name: string;
  description: string;
  schema: string;
  disabled: boolean;
  steps: StepDraft[];
  rescue: StepDraft[];
}

const newKey = (): string => crypto.randomUUID();

export function newStep(provider = ''): StepDraft {
  return { id: newKey(), name: '', provider, config: {}, notes: '', next: [] };
}

export function newRoute(): RouteDraft {
  return { key: newKey(), status: 'KO', code: '', target: { kind: 'stop' } };
}

export function emptyDraft(): WorkflowDraft {
  return { name: '', description: '', schema: '', disabled: false, steps: [newStep()], rescue: [] };
}

function stepDraft(step: Step): StepDraft {
  return {
    id: step.id,
    name: step.name,
    provider: step.provider,
    config: step.config,
    notes: step.notes,
    next: step.next.map((n) => ({
      key: newKey(),
      status: n.status ?? '',
      code: n.code ?? '',
      target: n.step_id ? { kind: 'step', stepId: n.step_id } : { kind: 'stop' },
    })),
  };
}

export function draftOf(workflow: Workflow): WorkflowDraft {
  return {
    name: workflow.name,
    description: workflow.description,
    schema: workflow.schema,
    disabled: workflow.disabled,
    steps: workflow.steps.map(stepDraft),
    rescue: workflow.rescue.map(stepDraft),
  };
}

function stepBody(step: StepDraft) {
  return {
    id: step.id,
    ...(step.name.trim() ? { name: step.name.trim() } : {}),
    provider: step.provider,
    config: step.config,
    ...(step.notes.trim() ? { notes: step.notes } : {}),
    next: step.next.map((r) => ({
      ...(r.status ? { status: r.status } : {}),
      ...(r.code.trim() ? { code: r.code.trim() } : {}),
      ...(r.target.kind === 'stop' ? { stop: true } : { step_id: r.target.stepId }),
    })),
  };
}

/** The body of putWorkflow / patchWorkflow. */
export function workflowBody(draft: WorkflowDraft) {
  return {
    name: draft.name.trim(),
    description: draft.description,
    ...(draft.schema.trim() ? { schema: draft.schema.trim() } : {}),
    disabled: draft.disabled,
    steps: draft.steps.map(stepBody),
    rescue: draft.rescue.map(stepBody),
  };
}
