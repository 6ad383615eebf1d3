import { useCallback, useEffect, useEffectEvent, useMemo, useState, type MutableRefObject } from 'react';
import type { ApiClient } from '../../api/client.ts';
import type { Entry } from '../../api/types.ts';
import { useApiQuery } from '../../data/queries.ts';
import { formatDay } from '../../format/date.ts';
import { ErrorNotice } from '../../ui/ErrorNotice.tsx';
import { Icon } from '../../ui/Icon.tsx';
import { DiscountsFields } from './DiscountsFields.tsx';
import { EditorField } from './EditorField.tsx';
import { faultsByField, faultsOfError, type EditorFault } from './fault-fields.ts';
import { applyGuess } from './guess-to-form.ts';
import { invoiceDocument, type InvoiceForm } from './invoice-form.ts';
import type { InvoiceGuess } from './invoice-guess.ts';
import { LinesTable } from './LinesTable.tsx';
import { NumberingFields } from './NumberingFields.tsx';
import { PartyFields } from './PartyFields.tsx';
import type { Regime } from './regime-taxes.ts';
import { completeScan, issueInvoice, saveDraft } from './save.ts';
import { SourcePanel } from './SourcePanel.tsx';
import { TotalsPanel } from './TotalsPanel.tsx';
import { useGoblBuild } from './useGoblBuild.ts';

/** new: an invoice made here; draft: a stored unsigned invoice (a saved draft, a credit note); complete: a scan or PDF to type in. */
export type EditorMode = 'new' | 'draft' | 'complete';

interface InvoiceEditorProps {
  api: ApiClient;
  entryId: string;
  exists: MutableRefObject<boolean>;
  stored?: Entry;
  mode: EditorMode;
  form: InvoiceForm;
  onForm(form: InvoiceForm): void;
  regime?: Regime;
  onSaved(entry: Entry, message: string): void;
}

const CURRENCIES = ['EUR', 'USD', 'GBP', 'CHF', 'SEK', 'NOK', 'DKK', 'PLN', 'CZK', 'MXN', 'BRL', 'CAD'];
const TYPE_LABELS: Record<string, string> = { standard: 'Invoice', 'credit-note': 'Credit note', 'debit-note': 'Debit note', corrective: 'Corrective invoice', proforma: 'Proforma' };

type Saving = 'draft' | 'issue' | 'complete' | undefined;

/** The invoice form, calculated by GOBL as it is typed, with its faults beside the fields and its save actions. */
export function InvoiceEditor({ api, entryId, exists, stored, mode, form, onForm, regime, onSaved }: InvoiceEditorProps) {
  const doc = useMemo(() => invoiceDocument(form), [form]);
  const build = useGoblBuild(doc);
  const [saving, setSaving] = useState<Saving>();
  const [saveError, setSaveError] = useState<unknown>();
  const [saveFaults, setSaveFaults] = useState<EditorFault[]>([]);
  const [seriesId, setSeriesId] = useState('');
  const [guess, setGuess] = useState<{ guess: InvoiceGuess; lines: number; filled: Set<string> }>();
  const series = useApiQuery('listSeries');

  const faults = saveFaults.length > 0 && build.faults.length === 0 ? saveFaults : build.faults;
  const { byField, elsewhere } = useMemo(() => faultsByField(faults), [faults]);
  const currency = form.currency || 'EUR';
  const chosenSeries = series.data?.list.find((s) => s.id === seriesId);
  const pdf = mode === 'complete' ? stored?.attachments.find((a) => a.mime === 'application/pdf') ?? stored?.attachments[0] : undefined;

  const edit = (next: InvoiceForm) => {
    setSaveFaults([]);
    onForm(next);
  };

  const onGuess = useCallback(
    (found: InvoiceGuess, lines: number) => {
      const { form: filled, filled: which } = applyGuess(form, found, regime);
      setGuess({ guess: found, lines, filled: which });
      if (which.size > 0) onForm(filled);
    },
    // Read once, when the file's text arrives: later edits are the user's.
    [],
  );

  const run = async (kind: Exclude<Saving, undefined>) => {
    if (saving) return;
    setSaving(kind);
    setSaveError(undefined);
    try {
      const target = { entryId, exists: exists.current };
      if (kind === 'draft') onSaved(await saveDraft(api, target, doc), 'Draft saved');
      else if (kind === 'complete') onSaved(await completeScan(api, target, doc, build.faults.length > 0), 'The draft is now the invoice it shows');
      else onSaved(await issueInvoice(api, target, doc, chosenSeries), 'Invoice issued and signed');
    } catch (error) {
      setSaveError(error);
      setSaveFaults(faultsOfError(error));
    } finally {
      setSaving(undefined);
    }
  };

  // Ctrl/⌘+S saves from anywhere in the editor, also while typing in a field.
  const saveByShortcut = useEffectEvent(() => void run(mode === 'complete' ? 'complete' : 'draft'));
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (!(event.ctrlKey || event.metaKey) || event.key.toLowerCase() !== 's' || event.altKey) return;
      event.preventDefault();
      saveByShortcut();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const canIssue = mode !== 'complete' && !!chosenSeries && build.faults.length === 0 && !build.busy;
  const actions = (
    <div className="editor-actions">
      {elsewhere.length > 0 && (
        <div className="notice notice-warning" role="status">
          <Icon name="alert" />
          <div className="notice-body">
            <p>GOBL finds {elsewhere.length === 1 ? 'a fault' : `${elsewhere.length} faults`} no field above shows:</p>
            <ul>
              {elsewhere.map((f, i) => (
                <li key={i}>
                  <code>{f.path}</code> {f.message}
                </li>
              ))}
            </ul>
          </div>
        </div>
      )}
      {saveError !== undefined && saveFaults.length === 0 && <ErrorNotice error={saveError} />}
      <p className="muted editor-status" aria-live="polite">
        {build.busy ? 'Calculating…' : faults.length > 0 ? `${faults.length} ${faults.length === 1 ? 'fault' : 'faults'} to fix before issuing` : 'GOBL finds nothing to fix'}
      </p>
      {mode === 'complete' ? (
        <button type="button" className="btn btn-primary" disabled={!!saving} onClick={() => run('complete')}>
          <Icon name="check" /> {build.faults.length > 0 ? 'Save with its faults' : 'Save the invoice'}
        </button>
      ) : (
        <>
          <button type="button" className="btn btn-primary" disabled={!canIssue || !!saving} onClick={() => run('issue')} title={chosenSeries ? undefined : 'Choose a series to number it from'}>
            <Icon name="shield" /> {saving === 'issue' ? 'Issuing…' : 'Issue and sign'}
          </button>
          <button type="button" className="btn" disabled={!!saving} onClick={() => run('draft')} title="Ctrl+S">
            {saving === 'draft' ? 'Saving…' : 'Save draft'}
          </button>
        </>
      )}
    </div>
  );

  return (
    <div className={`editor-layout${pdf ? ' with-source' : ''}`}>
      <form className="editor-form" aria-label="Invoice" onSubmit={(event) => event.preventDefault()} noValidate>
        {guess && (
          <div className={`notice ${guess.filled.size > 0 ? 'notice-success' : 'notice-warning'} guess-notice`} role="status">
            <Icon name={guess.filled.size > 0 ? 'check' : 'alert'} />
            <div className="notice-body">
              {guess.lines === 0 ? (
                <p>The file has no text to read (a scan): type the invoice in from the page beside.</p>
              ) : guess.filled.size === 0 ? (
                <p>The PDF's text names nothing this form could be sure of: type the invoice in.</p>
              ) : (
                <>
                  <p>Filled from the PDF's text; check each against the page:</p>
                  <ul className="guess-list">
                    {foundList(guess.guess).map(([what, value, line]) => (
                      <li key={what}>
                        <strong>{what}</strong> {value} <span className="muted">from “{line}”</span>
                      </li>
                    ))}
                  </ul>
                </>
              )}
            </div>
          </div>
        )}

        <fieldset className="editor-card doc-fields">
          <legend>Document</legend>
          <EditorField label="Type" faults={byField.get('type')}>
            {(c) => (
              <select {...c} className="select" value={form.type} disabled={mode === 'draft' && form.type !== 'standard'} onChange={(e) => edit({ ...form, type: e.target.value })}>
                {Object.entries(TYPE_LABELS).map(([value, label]) => (
                  <option key={value} value={value}>
                    {label}
                  </option>
                ))}
              </select>
            )}
          </EditorField>
          <EditorField label="Issue date" faults={byField.get('issue_date')}>
            {(c) => <input {...c} className="input" type="date" name="issue_date" value={form.issue_date} onChange={(e) => edit({ ...form, issue_date: e.target.value })} />}
          </EditorField>
          <EditorField label="Currency" faults={byField.get('currency')}>
            {(c) => (
              <>
                <input {...c} className="input" name="currency" list="editor-currencies" maxLength={3} value={form.currency} onChange={(e) => edit({ ...form, currency: e.target.value.toUpperCase() })} />
                <datalist id="editor-currencies">
                  {CURRENCIES.map((code) => (
                    <option key={code} value={code} />
                  ))}
                </datalist>
              </>
            )}
          </EditorField>
          <NumberingFields mode={mode === 'complete' ? 'typed' : 'series'} form={form} faults={byField} onForm={edit} series={series.data?.list ?? []} seriesId={seriesId} onSeries={setSeriesId} />
          {preceding(form) && <p className="muted span-2 preceding-note">Corrects {preceding(form)}</p>}
        </fieldset>

        <div className="parties">
          <PartyFields role="supplier" legend="Supplier" party={form.supplier} faults={byField} onChange={(supplier) => edit({ ...form, supplier })} hint={mode === 'new' ? 'From your last invoice' : undefined} />
          <PartyFields role="customer" legend="Customer" party={form.customer} faults={byField} onChange={(customer) => edit({ ...form, customer })} />
        </div>

        <LinesTable lines={form.lines} built={build.built} currency={currency} regime={regime} faults={byField} onChange={(lines) => edit({ ...form, lines })} />

        <div className="parties">
          <DiscountsFields discounts={form.discounts} faults={byField} onChange={(discounts) => edit({ ...form, discounts })} />
          <fieldset className="editor-card">
            <legend>Notes</legend>
            <EditorField label="Notes printed on the invoice" faults={byField.get('notes')}>
              {(c) => <textarea {...c} className="textarea" rows={3} value={form.notes} onChange={(e) => edit({ ...form, notes: e.target.value })} />}
            </EditorField>
            <label className="check">
              <input type="checkbox" checked={form.prices_include !== ''} onChange={(e) => edit({ ...form, prices_include: e.target.checked ? (regime?.categories.find((c) => !c.retained)?.code ?? 'VAT') : '' })} />
              Prices include tax
            </label>
          </fieldset>
        </div>
        {pdf && (
          <>
            <TotalsPanel built={build.built} currency={currency} busy={build.busy} />
            {actions}
          </>
        )}
      </form>
      {pdf ? (
        <SourcePanel attachment={pdf} onGuess={onGuess} />
      ) : (
        <aside className="editor-side" aria-label="Totals and actions">
          <TotalsPanel built={build.built} currency={currency} busy={build.busy} />
          {actions}
        </aside>
      )}
    </div>
  );
}

function preceding(form: InvoiceForm): string | undefined {
  const list = Array.isArray(form.rest.preceding) ? (form.rest.preceding as Array<Record<string, unknown>>) : [];
  const first = list[0];
  if (!first) return undefined;
  const number = [first.series, first.code].filter((p) => typeof p === 'string' && p).join('-');
  const date = typeof first.issue_date === 'string' ? ` of ${formatDay(first.issue_date)}` : '';
  return `${number || 'an earlier invoice'}${date}`;
}

function foundList(guess: InvoiceGuess): Array<[string, string, string]> {
  const list: Array<[string, string, string]> = [];
  if (guess.code) list.push(['Number', guess.code.value, guess.code.line]);
  if (guess.issue_date) list.push(['Date', guess.issue_date.value, guess.issue_date.line]);
  if (guess.supplier_name) list.push(['Supplier', guess.supplier_name.value, guess.supplier_name.line]);
  if (guess.supplier_tax_id) list.push(['Tax ID', `${guess.supplier_tax_id.value.country} ${guess.supplier_tax_id.value.code}`, guess.supplier_tax_id.line]);
  if (guess.net) list.push(['Net', guess.net.value, guess.net.line]);
  for (const rate of guess.rates) list.push([`Tax ${rate.value.percent} %`, rate.value.amount ?? '', rate.line]);
  if (guess.total) list.push(['Total', guess.total.value, guess.total.line]);
  return list;
}
