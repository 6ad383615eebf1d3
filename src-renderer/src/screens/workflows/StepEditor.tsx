import type { Provider } from '../../api/types.ts';
import { Field } from '../../ui/Field.tsx';
import { Icon } from '../../ui/Icon.tsx';
import { ConfigForm } from './ConfigForm.tsx';
import type { StepDraft } from './draft.ts';
import type { JsonSchema } from './json-schema.ts';
import { RoutesEditor } from './RoutesEditor.tsx';

interface StepEditorProps {
  step: StepDraft;
  index: number;
  count: number;
  /** `steps` or `rescue`: the body's list, for field error paths */
  list: 'steps' | 'rescue';
  providers: Provider[];
  targets: Array<{ step: StepDraft; label: string }>;
  onChange(step: StepDraft): void;
  onMove(delta: number): void;
  onRemove(): void;
  errorAt(path: string): string | undefined;
}

/** One step: its name, provider, a config form generated from the provider's schema, routing and notes. */
export function StepEditor({ step, index, count, list, providers, targets, onChange, onMove, onRemove, errorAt }: StepEditorProps) {
  const provider = providers.find((p) => p.id === step.provider);
  const base = `$.${list}[${index}]`;
  const label = `${list === 'rescue' ? 'Rescue step' : 'Step'} ${index + 1}`;
  return (
    <li className="step card" aria-label={`${label}${step.name ? `: ${step.name}` : ''}`}>
      <div className="step-head">
        <span className="step-number" aria-hidden="true">
          {index + 1}
        </span>
        <h4 className="visually-hidden">{label}</h4>
        <div className="step-fields">
          <Field label="Provider" error={errorAt(`${base}.provider`) ?? errorAt(`${base}.action`)}>
            {(a11y) => (
              <select {...a11y} className="select" value={step.provider} onChange={(event) => onChange({ ...step, provider: event.target.value, config: {} })}>
                <option value="">Choose what this step does…</option>
                {!provider && step.provider && <option value={step.provider}>{step.provider} (not available here)</option>}
                {providers.map((p) => (
                  <option key={p.id} value={p.id}>
                    {p.id}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field label="Name (optional)" error={errorAt(`${base}.name`)}>
            {(a11y) => <input {...a11y} className="input" value={step.name} placeholder={provider?.id ?? ''} onChange={(event) => onChange({ ...step, name: event.target.value })} />}
          </Field>
        </div>
        <div className="step-tools">
          <button type="button" className="icon-btn" aria-label={`Move ${label} up`} disabled={index === 0} onClick={() => onMove(-1)}>
            <Icon name="up" />
          </button>
          <button type="button" className="icon-btn" aria-label={`Move ${label} down`} disabled={index === count - 1} onClick={() => onMove(1)}>
            <Icon name="down" />
          </button>
          <button type="button" className="icon-btn" aria-label={`Remove ${label}`} onClick={onRemove}>
            <Icon name="trash" />
          </button>
        </div>
      </div>
      {provider && <p className="muted step-description">{provider.description}</p>}
      {provider && (
        <ConfigForm schema={provider.config_schema as JsonSchema} value={step.config} onChange={(config) => onChange({ ...step, config })} path={`${base}.config`} errorAt={errorAt} />
      )}
      {errorAt(`${base}.config`) && <p className="field-error">{errorAt(`${base}.config`)}</p>}
      <RoutesEditor routes={step.next} onChange={(next) => onChange({ ...step, next })} targets={targets} self={step.id} label={label} />
      <details className="step-notes" open={step.notes !== ''}>
        <summary>Notes</summary>
        <textarea className="textarea" aria-label={`Notes for ${label}`} value={step.notes} onChange={(event) => onChange({ ...step, notes: event.target.value })} />
      </details>
    </li>
  );
}
