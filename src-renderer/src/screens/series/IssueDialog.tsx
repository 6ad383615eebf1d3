import { useState, type FormEvent } from 'react';
import type { Series } from '../../api/types.ts';
import { useApi } from '../../app/ApiContext.tsx';
import { Dialog } from '../../ui/Dialog.tsx';
import { ErrorNotice, fieldError } from '../../ui/ErrorNotice.tsx';
import { Icon } from '../../ui/Icon.tsx';
import { useToast } from '../../ui/Toasts.tsx';
import { seriesCode } from './code-preview.ts';

interface MetaRow {
  key: string;
  value: string;
}

/** Issues the next number of a series by hand, with optional notes (meta) kept in its signed payload. */
export function IssueDialog({ series, open, onClose, onIssued }: { series: Series; open: boolean; onClose(): void; onIssued(): void }) {
  const api = useApi();
  const notify = useToast();
  const [rows, setRows] = useState<MetaRow[]>([{ key: 'reference', value: '' }]);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  const next = series.last_entry_id ? series.last_index + 1 : series.start;

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    const meta = Object.fromEntries(rows.filter((r) => r.key.trim() && r.value.trim()).map((r) => [r.key.trim(), r.value.trim()]));
    try {
      const entry = await api.putSeriesEntry({ params: { series_id: series.id, id: crypto.randomUUID() }, body: Object.keys(meta).length ? { meta } : {} });
      notify(`Issued ${entry.code}`, { kind: 'success' });
      setRows([{ key: 'reference', value: '' }]);
      onIssued();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog
      open={open}
      title={`Issue ${seriesCode(series, next)}`}
      onClose={onClose}
      footer={
        <>
          <button type="button" className="btn" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" form="issue-form" className="btn btn-primary" disabled={busy}>
            Issue {seriesCode(series, next)}
          </button>
        </>
      }
    >
      <form id="issue-form" className="dialog-form" onSubmit={submit}>
        <p className="muted">
          The number is taken for good: series are gapless, and each entry is signed and chained to the one before. Notes are optional and
          become part of the signed record.
        </p>
        <fieldset className="meta-rows">
          <legend>Notes</legend>
          {rows.map((row, i) => (
            <div key={i} className="meta-row">
              <input
                className="input"
                aria-label={`Note ${i + 1} name`}
                value={row.key}
                aria-invalid={fieldError(error, `$.meta.${row.key}`) ? true : undefined}
                onChange={(event) => setRows(rows.map((r, j) => (j === i ? { ...r, key: event.target.value } : r)))}
              />
              <input className="input" aria-label={`Note ${i + 1} value`} value={row.value} onChange={(event) => setRows(rows.map((r, j) => (j === i ? { ...r, value: event.target.value } : r)))} />
              <button type="button" className="icon-btn" aria-label={`Remove note ${i + 1}`} onClick={() => setRows(rows.filter((_, j) => j !== i))}>
                <Icon name="trash" />
              </button>
            </div>
          ))}
          <button type="button" className="btn btn-sm btn-ghost" onClick={() => setRows([...rows, { key: '', value: '' }])}>
            <Icon name="plus" /> Add a note
          </button>
        </fieldset>
        <ErrorNotice error={error} />
      </form>
    </Dialog>
  );
}
