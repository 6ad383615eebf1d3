import { useState } from 'react';
import { downloadToBlob } from '../../api/binary.ts';
import type { ExportSelection } from '../../api/types.ts';
import { useApi } from '../../app/ApiContext.tsx';
import { plural } from '../../format/count.ts';
import { Dialog } from '../../ui/Dialog.tsx';
import { saveBlob } from '../../ui/download.ts';
import { ErrorNotice } from '../../ui/ErrorNotice.tsx';
import { useToast } from '../../ui/Toasts.tsx';
import './exports.css';

/** What an export holds: a selection by id, or everything a folder and filters match (the contract's selection). */
export type ExportScope = ExportSelection;

type Format = 'zip' | 'csv-document' | 'csv-tax-rate';

interface ExportDialogProps {
  open: boolean;
  onClose(): void;
  /** how many entries, when known, and what they are ("in Q1 2026") */
  count?: number;
  what: string;
  /** the scope, resolved when the user exports (a selection of all matching is loaded then) */
  scope(): Promise<ExportScope>;
}

const today = () => new Date().toISOString().slice(0, 10);
const fileName = (scope: ExportScope, extension: string) => {
  const what = scope.ids ? 'selection' : (scope.folder ?? 'entries');
  return `silodesk-${what.normalize('NFKD').replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[-.]+|[-.]+$/g, '') || 'entries'}-${today()}.${extension}`;
};

/** Exports entries as a ZIP of envelopes and files, or as a CSV for a spreadsheet or accounting software. */
export function ExportDialog({ open, onClose, count, what, scope }: ExportDialogProps) {
  const api = useApi();
  const toast = useToast();
  const [format, setFormat] = useState<Format>('zip');
  const [separator, setSeparator] = useState<'comma' | 'semicolon'>('comma');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();

  const run = async () => {
    setBusy(true);
    setError(undefined);
    try {
      const selection = await scope();
      if (format === 'zip') {
        saveBlob(downloadToBlob(await api.exportZip({ body: selection }), 'application/zip'), fileName(selection, 'zip'));
      } else {
        const rows = format === 'csv-tax-rate' ? 'tax-rate' : 'document';
        const options = separator === 'semicolon' ? { delimiter: ';' as const, decimal: ',' as const } : { delimiter: ',' as const, decimal: '.' as const };
        const csv = await api.exportCsv({ body: { ...selection, rows, ...options } });
        saveBlob(downloadToBlob(csv, 'text/csv'), fileName(selection, rows === 'tax-rate' ? 'tax-rates.csv' : 'csv'));
      }
      toast(`Exported ${count !== undefined ? plural(count, 'entry', 'entries') : what}`, { kind: 'success' });
      onClose();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog
      open={open}
      title={`Export ${count !== undefined ? plural(count, 'entry', 'entries') : what}`}
      onClose={onClose}
      footer={
        <>
          <button type="button" className="btn" onClick={onClose}>
            Cancel
          </button>
          <button type="button" className="btn btn-primary" disabled={busy} onClick={run}>
            {busy ? 'Exporting…' : 'Export'}
          </button>
        </>
      }
    >
      <fieldset className="export-choices">
        <legend>Format</legend>
        <label className="check">
          <input type="radio" name="export-format" checked={format === 'zip'} onChange={() => setFormat('zip')} />
          ZIP: each envelope with its files, and an index.csv
        </label>
        <label className="check">
          <input type="radio" name="export-format" checked={format === 'csv-document'} onChange={() => setFormat('csv-document')} />
          CSV: one row per document
        </label>
        <label className="check">
          <input type="radio" name="export-format" checked={format === 'csv-tax-rate'} onChange={() => setFormat('csv-tax-rate')} />
          CSV: one row per tax rate (base, percent, amount)
        </label>
      </fieldset>
      {format !== 'zip' && (
        <fieldset className="export-choices">
          <legend>Spreadsheet</legend>
          <label className="check">
            <input type="radio" name="export-separator" checked={separator === 'comma'} onChange={() => setSeparator('comma')} />
            Commas between fields, decimal point (1234.50)
          </label>
          <label className="check">
            <input type="radio" name="export-separator" checked={separator === 'semicolon'} onChange={() => setSeparator('semicolon')} />
            Semicolons between fields, decimal comma (1234,50)
          </label>
        </fieldset>
      )}
      <p className="muted">Credit notes are negative. {what ? `Exports ${what}.` : ''}</p>
      <ErrorNotice error={error} />
    </Dialog>
  );
}
