import { useState, type FormEvent } from 'react';
import type { Series } from '../../api/types.ts';
import { useApi } from '../../app/ApiContext.tsx';
import { ErrorNotice, fieldError } from '../../ui/ErrorNotice.tsx';
import { Field } from '../../ui/Field.tsx';
import { useToast } from '../../ui/Toasts.tsx';
import { seriesCode } from './code-preview.ts';

interface SeriesFormProps {
  /** undefined to create one */
  series?: Series;
  onSaved(series: Series): void;
  onCancel?(): void;
}

interface Draft {
  name: string;
  description: string;
  code: string;
  prefix: string;
  padding: string;
  suffix: string;
  start: string;
}

/** Creates a series (or edits one), previewing the codes it will give as the user types. */
export function SeriesForm({ series, onSaved, onCancel }: SeriesFormProps) {
  const api = useApi();
  const notify = useToast();
  const [draft, setDraft] = useState<Draft>(() => ({
    name: series?.name ?? '',
    description: series?.description ?? '',
    code: series?.code ?? '',
    prefix: series?.prefix ?? '',
    padding: String(series?.padding ?? 4),
    suffix: series?.suffix ?? '',
    start: String(series?.start ?? 1),
  }));
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<unknown>();
  const numberingFixed = !!series?.last_entry_id;
  const set = (change: Partial<Draft>) => setDraft((d) => ({ ...d, ...change }));
  const errorAt = (path: string) => fieldError(error, path);

  const padding = /^\d+$/.test(draft.padding) ? Number(draft.padding) : 0;
  const start = /^\d+$/.test(draft.start) ? Number(draft.start) : 1;
  const first = series?.last_entry_id ? series.last_index + 1 : start;
  const numbering = { prefix: draft.prefix, padding, suffix: draft.suffix };

  async function save(event: FormEvent) {
    event.preventDefault();
    setSaving(true);
    setError(undefined);
    const numbers = numberingFixed
      ? {}
      : { prefix: draft.prefix, suffix: draft.suffix, padding: Number(draft.padding), start: Number(draft.start), code: draft.code };
    try {
      const saved = series
        ? await api.patchSeries({ params: { id: series.id }, body: { name: draft.name, description: draft.description, ...numbers } })
        : await api.putSeries({ params: { id: crypto.randomUUID() }, body: { name: draft.name, description: draft.description, ...numbers } });
      notify(series ? `Saved ${saved.name}` : `Created series ${saved.name}`, { kind: 'success' });
      onSaved(saved);
    } catch (err) {
      setError(err);
    } finally {
      setSaving(false);
    }
  }

  return (
    <form className="series-form" onSubmit={save} aria-label={series ? 'Edit series' : 'New series'}>
      <div className="form-grid">
        <Field label="Name" error={errorAt('$.name')}>
          {(a11y) => <input {...a11y} className="input" required value={draft.name} onChange={(event) => set({ name: event.target.value })} />}
        </Field>
        <Field label="Series code (optional)" error={errorAt('$.code')} hint="Written to each document's series, e.g. FV">
          {(a11y) => <input {...a11y} className="input" value={draft.code} disabled={numberingFixed} onChange={(event) => set({ code: event.target.value })} />}
        </Field>
      </div>
      <fieldset className="numbering" disabled={numberingFixed}>
        <legend>Numbering{numberingFixed ? ' (fixed: this series has issued numbers)' : ''}</legend>
        <div className="form-grid">
          <Field label="Prefix" error={errorAt('$.prefix')}>
            {(a11y) => <input {...a11y} className="input" value={draft.prefix} onChange={(event) => set({ prefix: event.target.value })} placeholder="e.g. 2025-" />}
          </Field>
          <Field label="Digits (padding)" error={errorAt('$.padding')}>
            {(a11y) => <input {...a11y} className="input" type="number" min={0} max={20} value={draft.padding} onChange={(event) => set({ padding: event.target.value })} />}
          </Field>
          <Field label="Suffix" error={errorAt('$.suffix')}>
            {(a11y) => <input {...a11y} className="input" value={draft.suffix} onChange={(event) => set({ suffix: event.target.value })} />}
          </Field>
          <Field label="First number" error={errorAt('$.start')}>
            {(a11y) => <input {...a11y} className="input" type="number" min={0} value={draft.start} onChange={(event) => set({ start: event.target.value })} />}
          </Field>
        </div>
      </fieldset>
      <div className="code-preview" aria-live="polite">
        <span className="muted">{series?.last_entry_id ? 'Next code' : 'First codes'}</span>
        <output className="preview-code" aria-label="Next code">
          {seriesCode(numbering, first)}
        </output>
        <span className="muted">
          then {seriesCode(numbering, first + 1)}, {seriesCode(numbering, first + 2)}…
        </span>
      </div>
      <Field label="Description (optional)" error={errorAt('$.description')}>
        {(a11y) => <textarea {...a11y} className="textarea prose" rows={2} value={draft.description} onChange={(event) => set({ description: event.target.value })} />}
      </Field>
      <ErrorNotice error={error} withFields={false} />
      <div className="form-actions">
        {onCancel && (
          <button type="button" className="btn" onClick={onCancel}>
            Cancel
          </button>
        )}
        <button type="submit" className="btn btn-primary" disabled={saving}>
          {saving ? 'Saving…' : series ? 'Save' : 'Create series'}
        </button>
      </div>
    </form>
  );
}
