import type { Series } from '../../api/types.ts';
import { seriesCode } from '../series/code-preview.ts';
import type { EditorFault } from './fault-fields.ts';
import { EditorField } from './EditorField.tsx';
import type { InvoiceForm } from './invoice-form.ts';
import { seriesAndCode } from './save.ts';

/** The number a series gives next, as the document will read it ("FV-2026-00004"). */
export function nextNumber(series: Series): string {
  const issued = seriesCode(series, series.last_entry_id ? series.last_index + 1 : series.start);
  const { series: s, code } = seriesAndCode(series.code, issued);
  return s ? `${s}-${code}` : code;
}

interface NumberingFieldsProps {
  mode: 'series' | 'typed';
  form: InvoiceForm;
  faults: Map<string, EditorFault[]>;
  onForm(form: InvoiceForm): void;
  series: Series[];
  seriesId: string;
  onSeries(id: string): void;
}

/** How the document is numbered: from a series when it is issued here, or as typed (a received document's own number). */
export function NumberingFields({ mode, form, faults, onForm, series, seriesId, onSeries }: NumberingFieldsProps) {
  if (mode === 'typed') {
    return (
      <>
        <EditorField label="Series" faults={faults.get('series')}>
          {(c) => <input {...c} className="input" name="series" value={form.series} onChange={(e) => onForm({ ...form, series: e.target.value })} />}
        </EditorField>
        <EditorField label="Number" faults={faults.get('code')} hint="As printed on the document">
          {(c) => <input {...c} className="input" name="code" value={form.code} onChange={(e) => onForm({ ...form, code: e.target.value })} />}
        </EditorField>
      </>
    );
  }
  const usable = series.filter((s) => !s.hold);
  const chosen = usable.find((s) => s.id === seriesId);
  return (
    <EditorField
      label="Number from series"
      faults={faults.get('code')}
      className="span-2"
      hint={chosen ? `Issuing takes ${nextNumber(chosen)} (or the next free number) and signs the invoice` : 'A draft is saved unnumbered; issuing numbers it from this series'}
    >
      {(c) => (
        <select {...c} className="select" name="series" value={seriesId} onChange={(e) => onSeries(e.target.value)}>
          <option value="">{usable.length === 0 ? 'No series yet (make one under Series)' : 'Choose a series…'}</option>
          {usable.map((s) => (
            <option key={s.id} value={s.id}>
              {s.name || s.code || s.id} — next {nextNumber(s)}
            </option>
          ))}
        </select>
      )}
    </EditorField>
  );
}
