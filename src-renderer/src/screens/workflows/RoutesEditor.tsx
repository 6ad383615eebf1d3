import { Icon } from '../../ui/Icon.tsx';
import { newRoute, type RouteDraft, type StepDraft } from './draft.ts';

interface RoutesEditorProps {
  routes: RouteDraft[];
  onChange(routes: RouteDraft[]): void;
  /** steps a route may go to (main and rescue), named as the editor shows them */
  targets: Array<{ step: StepDraft; label: string }>;
  self: string;
  label: string;
}

const STATUSES: Array<{ value: RouteDraft['status']; label: string }> = [
  { value: '', label: 'Any outcome' },
  { value: 'OK', label: 'OK' },
  { value: 'KO', label: 'KO (failed)' },
  { value: 'SKIP', label: 'SKIP' },
  { value: 'TIMEOUT', label: 'TIMEOUT' },
];

/** Where the job goes after a step, by its outcome (and optionally the code the step answered). */
export function RoutesEditor({ routes, onChange, targets, self, label }: RoutesEditorProps) {
  const update = (key: string, change: Partial<RouteDraft>) => onChange(routes.map((r) => (r.key === key ? { ...r, ...change } : r)));
  return (
    <fieldset className="routes">
      <legend>Routing</legend>
      <p className="hint">With no matching route, OK and SKIP go on to the next step; KO and TIMEOUT run the rescue steps, if any.</p>
      {routes.length > 0 && (
        <ul className="route-list">
          {routes.map((r, i) => (
            <li key={r.key} className="route">
              <span className="muted">When</span>
              <select className="select" aria-label={`${label}, route ${i + 1}: outcome`} value={r.status} onChange={(event) => update(r.key, { status: event.target.value as RouteDraft['status'] })}>
                {STATUSES.map((s) => (
                  <option key={s.value} value={s.value}>
                    {s.label}
                  </option>
                ))}
              </select>
              <input className="input route-code" aria-label={`${label}, route ${i + 1}: code (optional)`} placeholder="any code" value={r.code} onChange={(event) => update(r.key, { code: event.target.value })} />
              <span className="muted">go to</span>
              <select
                className="select"
                aria-label={`${label}, route ${i + 1}: go to`}
                value={r.target.kind === 'stop' ? 'stop' : r.target.stepId}
                onChange={(event) => update(r.key, { target: event.target.value === 'stop' ? { kind: 'stop' } : { kind: 'step', stepId: event.target.value } })}
              >
                <option value="stop">Stop (end the job)</option>
                {targets
                  .filter((t) => t.step.id !== self)
                  .map((t) => (
                    <option key={t.step.id} value={t.step.id}>
                      {t.label}
                    </option>
                  ))}
              </select>
              <button type="button" className="icon-btn" aria-label={`Remove route ${i + 1} of ${label}`} onClick={() => onChange(routes.filter((x) => x.key !== r.key))}>
                <Icon name="trash" />
              </button>
            </li>
          ))}
        </ul>
      )}
      <button type="button" className="btn btn-sm btn-ghost" onClick={() => onChange([...routes, newRoute()])}>
        <Icon name="plus" /> Add a route
      </button>
    </fieldset>
  );
}
