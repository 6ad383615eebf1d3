import { v4 as uuidv4 } from 'uuid';
import type { z } from 'zod';
import { validationError } from '../api/errors.ts';
import { jsonPath } from '../api/errors.ts';
import type { nextSchema, stepInput, stepSchema } from '../api/contract/transform.ts';
import { resolveProvider } from './hosted-providers.ts';
import type { Provider } from './provider.ts';

export type Step = z.output<typeof stepSchema>;
export type StepInput = z.output<typeof stepInput>;
export type Next = z.output<typeof nextSchema>;

/** A workflow version as stored and as jobs run it. */
export interface WorkflowDefinition {
  name: string;
  description: string;
  country: string;
  schema: string;
  steps: Step[];
  rescue: Step[];
  disabled: boolean;
}

export function normalizeStep(step: StepInput): Step {
  return {
    id: step.id ?? uuidv4(),
    name: step.name ?? step.provider ?? step.action ?? '',
    provider: (step.provider ?? step.action)!,
    config: step.config ?? {},
    notes: step.notes ?? '',
    next: step.next ?? [],
  };
}

/**
 * Checks what zod alone cannot: step ids unique across steps and rescue, every
 * route points at an existing step, every provider exists and its config passes
 * that provider's own schema. A hosted provider the desk does not run is stored
 * with its config as written (it ends KO `hosted-only` when run); a name neither
 * knows is refused, so a typo shows at save time. All problems are reported at
 * once, by JSON path.
 */
export function checkDefinition(def: WorkflowDefinition, providers: Map<string, Provider<any>>): WorkflowDefinition {
  const fields: Record<string, string> = {};
  const ids = new Set<string>();
  const lists: Array<['steps' | 'rescue', Step[]]> = [['steps', def.steps], ['rescue', def.rescue]];
  for (const [list, steps] of lists) {
    steps.forEach((step, i) => {
      if (ids.has(step.id)) fields[`$.${list}[${i}].id`] = `step id ${step.id} is used twice`;
      ids.add(step.id);
    });
  }
  const normalized: WorkflowDefinition = { ...def, steps: [], rescue: [] };
  for (const [list, steps] of lists) {
    steps.forEach((step, i) => {
      const at = `$.${list}[${i}]`;
      step.next.forEach((n, j) => {
        if (n.step_id && !ids.has(n.step_id)) fields[`${at}.next[${j}].step_id`] = `no step has id ${n.step_id}`;
        if (!n.step_id && !n.stop) fields[`${at}.next[${j}]`] = 'a route needs a step_id or stop: true';
      });
      const provider = resolveProvider(providers, step.provider);
      if (!provider) {
        fields[`${at}.provider`] =
          `unknown provider ${JSON.stringify(step.provider)}: neither this desk (GET /transform/v1/providers) nor the hosted service has it`;
        normalized[list].push(step);
        return;
      }
      const parsed = provider.config.safeParse(step.config);
      if (!parsed.success) {
        for (const issue of parsed.error.issues) fields[jsonPath(`${at}.config`, issue.path)] = issue.message;
        normalized[list].push(step);
      } else {
        normalized[list].push({ ...step, config: (parsed.data ?? {}) as Record<string, unknown> });
      }
    });
  }
  if (Object.keys(fields).length > 0) {
    throw validationError(`the workflow is not valid: ${Object.entries(fields).map(([k, v]) => `${k} ${v}`).join('; ')}`, fields);
  }
  return normalized;
}
