import type { Step, WorkflowDefinition } from './definition.ts';

/** How a step ended, as routing sees it: TIMEOUT is the engine's own verdict. */
export type RoutedStatus = 'OK' | 'KO' | 'SKIP' | 'TIMEOUT';

export type RouteDecision =
  | { kind: 'step'; step: Step; inRescue: boolean }
  | { kind: 'end'; status: 'OK' | 'KO'; reason: string };

export function findStep(def: WorkflowDefinition, stepId: string): { step: Step; inRescue: boolean } | undefined {
  const main = def.steps.find((s) => s.id === stepId);
  if (main) return { step: main, inRescue: false };
  const rescue = def.rescue.find((s) => s.id === stepId);
  return rescue ? { step: rescue, inRescue: true } : undefined;
}

/**
 * Where a job goes after a step: the first `next` whose status (empty = any) and
 * code match; `stop` ends the job. With no matching route, OK and SKIP go on to the
 * following step of the same list (the end of the list ends the job); KO and
 * TIMEOUT run the rescue steps once, if any, else end the job KO. A job in rescue
 * ends KO: rescue cleans up, it does not turn a failure into a success.
 */
export function route(
  def: WorkflowDefinition,
  current: Step,
  inRescue: boolean,
  status: RoutedStatus,
  code: string | undefined,
): RouteDecision {
  const match = current.next.find(
    (n) => (n.status === undefined || n.status === '' || n.status === status) && (n.code === undefined || n.code === code),
  );
  const failed = status === 'KO' || status === 'TIMEOUT';
  if (match) {
    if (match.stop) return { kind: 'end', status: failed || inRescue ? 'KO' : 'OK', reason: `stopped by a route on ${status}` };
    const target = findStep(def, match.step_id!);
    if (target) return { kind: 'step', ...target };
    return { kind: 'end', status: 'KO', reason: `route to missing step ${match.step_id}` };
  }
  if (failed) {
    if (!inRescue && def.rescue.length > 0) return { kind: 'step', step: def.rescue[0], inRescue: true };
    return { kind: 'end', status: 'KO', reason: `step ${current.name || current.id} ended ${status}` };
  }
  const list = inRescue ? def.rescue : def.steps;
  const following = list[list.findIndex((s) => s.id === current.id) + 1];
  if (following) return { kind: 'step', step: following, inRescue };
  return { kind: 'end', status: inRescue ? 'KO' : 'OK', reason: inRescue ? 'rescue finished' : 'all steps done' };
}
