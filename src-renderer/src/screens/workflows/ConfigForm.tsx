import { useState } from 'react';
import { useApiQuery } from '../../data/queries.ts';
import { Field } from '../../ui/Field.tsx';
import { TagEditor } from '../../ui/TagEditor.tsx';
import { labelFor, widgetFor, type JsonSchema } from './json-schema.ts';

type Config = Record<string, unknown>;

interface ConfigFormProps {
  schema: JsonSchema;
  value: Config;
  onChange(value: Config): void;
  /** JSON path of this config in the workflow body, e.g. `$.steps[0].config` (field errors are keyed by it) */
  path: string;
  errorAt(path: string): string | undefined;
}

/**
 * A form generated from a provider's JSON Schema: text, numbers, switches, choices,
 * lists of words and nested groups; any other shape is edited as JSON. Empty
 * optional fields are left out of the config.
 */
export function ConfigForm({ schema, value, onChange, path, errorAt }: ConfigFormProps) {
  const properties = Object.entries(schema.properties ?? {});
  if (widgetFor(schema) !== 'object') {
    if (properties.length === 0 && schema.type === 'object') return <p className="muted config-none">This step needs no configuration.</p>;
    return <JsonField label="Configuration (JSON)" value={value} onChange={(v) => onChange((v as Config) ?? {})} error={errorAt(path)} />;
  }
  const required = new Set(schema.required ?? []);
  return (
    <div className="config-form">
      {properties.map(([name, fieldSchema]) => (
        <ConfigField
          key={name}
          name={name}
          schema={fieldSchema}
          required={required.has(name)}
          value={value[name]}
          onChange={(next) => {
            const copy = { ...value };
            if (next === undefined) delete copy[name];
            else copy[name] = next;
            onChange(copy);
          }}
          path={`${path}.${name}`}
          errorAt={errorAt}
        />
      ))}
    </div>
  );
}

interface ConfigFieldProps {
  name: string;
  schema: JsonSchema;
  required: boolean;
  value: unknown;
  onChange(value: unknown): void;
  path: string;
  errorAt(path: string): string | undefined;
}

function ConfigField({ name, schema, required, value, onChange, path, errorAt }: ConfigFieldProps) {
  const widget = widgetFor(schema);
  const label = `${labelFor(name, schema)}${required ? '' : ' (optional)'}`;
  const error = errorAt(path);
  const hint = schema.description;

  switch (widget) {
    case 'string':
      if (name === 'series_id' || name.endsWith('_series_id')) return <SeriesPicker label={label} value={value} onChange={onChange} error={error} required={required} />;
      return (
        <Field label={label} error={error} hint={hint}>
          {(a11y) => (
            <input
              {...a11y}
              className="input"
              value={typeof value === 'string' ? value : ''}
              maxLength={schema.maxLength}
              required={required}
              placeholder={typeof schema.default === 'string' ? `${schema.default} (default)` : undefined}
              onChange={(event) => onChange(event.target.value === '' ? undefined : event.target.value)}
            />
          )}
        </Field>
      );
    case 'number':
    case 'integer':
      return (
        <Field label={label} error={error} hint={hint}>
          {(a11y) => (
            <input
              {...a11y}
              className="input"
              type="number"
              step={widget === 'integer' ? 1 : 'any'}
              min={schema.minimum}
              max={schema.maximum}
              required={required}
              placeholder={typeof schema.default === 'number' ? `${schema.default} (default)` : undefined}
              value={typeof value === 'number' ? String(value) : ''}
              onChange={(event) => onChange(event.target.value === '' ? undefined : Number(event.target.value))}
            />
          )}
        </Field>
      );
    case 'boolean': {
      // An unset switch shows what the step will do: its JSON Schema default (gobl.validate's
      // arithmetic is on unless turned off). Set back to the default, it is left out of the config.
      const fallback = schema.default === true;
      const checked = typeof value === 'boolean' ? value : fallback;
      return (
        <div className="field">
          <label className="check">
            <input
              type="checkbox"
              checked={checked}
              onChange={(event) => onChange(event.target.checked === fallback && !required ? undefined : event.target.checked)}
            />
            {labelFor(name, schema)}
            {schema.default !== undefined && typeof value !== 'boolean' && <span className="muted"> (default)</span>}
          </label>
          {hint && <span className="hint">{hint}</span>}
          {error && <span className="field-error">{error}</span>}
        </div>
      );
    }
    case 'enum':
      return (
        <Field label={label} error={error} hint={hint}>
          {(a11y) => (
            <select {...a11y} className="select" value={typeof value === 'string' ? value : ''} onChange={(event) => onChange(event.target.value || undefined)}>
              {(!required || value === undefined) && (
                <option value="">{typeof schema.default === 'string' ? `${schema.default} (default)` : required ? 'Choose…' : '—'}</option>
              )}
              {(schema.enum as string[]).map((option) => (
                <option key={option} value={option}>
                  {option}
                </option>
              ))}
            </select>
          )}
        </Field>
      );
    case 'strings':
      return (
        <div className="field">
          <span className="field-label">{label}</span>
          <TagEditor
            tags={Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []}
            onChange={(list) => onChange(list.length ? list : undefined)}
            label={`Add an item to ${labelFor(name, schema)}`}
          />
          {hint && <span className="hint">{hint}</span>}
          {error && <span className="field-error">{error}</span>}
        </div>
      );
    case 'object':
      return (
        <fieldset className="config-group">
          <legend>{label}</legend>
          <ConfigForm
            schema={schema}
            value={typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Config) : {}}
            onChange={(next) => onChange(Object.keys(next).length ? next : undefined)}
            path={path}
            errorAt={errorAt}
          />
        </fieldset>
      );
    default:
      return <JsonField label={`${label} (JSON)`} value={value} onChange={onChange} error={error} hint={hint} />;
  }
}

/** A value the form cannot model, edited as JSON text; kept as typed until it parses. */
function JsonField({ label, value, onChange, error, hint }: { label: string; value: unknown; onChange(value: unknown): void; error?: string; hint?: string }) {
  const [text, setText] = useState(() => (value === undefined || (typeof value === 'object' && value !== null && Object.keys(value).length === 0 && !Array.isArray(value)) ? '' : JSON.stringify(value, null, 2)));
  const [parseError, setParseError] = useState<string>();
  return (
    <Field label={label} error={parseError ?? error} hint={hint}>
      {(a11y) => (
        <textarea
          {...a11y}
          className="textarea"
          spellCheck={false}
          value={text}
          rows={Math.min(12, Math.max(3, text.split('\n').length))}
          onChange={(event) => {
            const next = event.target.value;
            setText(next);
            if (next.trim() === '') {
              setParseError(undefined);
              onChange(undefined);
              return;
            }
            try {
              onChange(JSON.parse(next));
              setParseError(undefined);
            } catch {
              setParseError('Not valid JSON yet');
            }
          }}
        />
      )}
    </Field>
  );
}

/** A series chosen by name instead of pasting its id. */
function SeriesPicker({ label, value, onChange, error, required }: { label: string; value: unknown; onChange(value: unknown): void; error?: string; required: boolean }) {
  const series = useApiQuery('listSeries');
  const list = series.data?.list ?? [];
  const current = typeof value === 'string' ? value : '';
  return (
    <Field label={label} error={error} hint={list.length === 0 && series.data ? 'Create a series first, on the Series page.' : undefined}>
      {(a11y) => (
        <select {...a11y} className="select" value={current} required={required} onChange={(event) => onChange(event.target.value || undefined)}>
          <option value="">Choose a series…</option>
          {current && !list.some((s) => s.id === current) && <option value={current}>{current}</option>}
          {list.map((s) => (
            <option key={s.id} value={s.id}>
              {s.name}
              {s.code ? ` (${s.code})` : ''}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}
