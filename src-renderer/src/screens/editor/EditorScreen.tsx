import { useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { v7 as uuidv7 } from 'uuid';
import type { Entry } from '../../api/types.ts';
import { useApi } from '../../app/ApiContext.tsx';
import { navigate } from '../../app/routes.ts';
import { useDebounced } from '../../app/useDebounced.ts';
import { apiKey } from '../../data/keys.ts';
import { useApiQuery } from '../../data/queries.ts';
import { Loading } from '../../ui/EmptyState.tsx';
import { ErrorNotice } from '../../ui/ErrorNotice.tsx';
import { Icon } from '../../ui/Icon.tsx';
import { useToast } from '../../ui/Toasts.tsx';
import { docKind, schemaPath } from '../entries/doc-kind.ts';
import { documentOf } from '../entry/gobl.ts';
import { companyDefaults } from './company-party.ts';
import { InvoiceEditor, type EditorMode } from './InvoiceEditor.tsx';
import { invoiceForm, newInvoiceForm, partyForm, type InvoiceForm } from './invoice-form.ts';
import './editor.css';

const today = () => {
  const now = new Date();
  return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;
};

/**
 * The invoice editor's screen: a new invoice (`#/editor`), a stored unsigned invoice such
 * as a draft or a credit note made from an invoice (`#/editor/<id>`), or a scanned or PDF
 * draft to complete into the invoice it shows.
 */
export function EditorScreen({ entryId }: { entryId?: string }) {
  // A new invoice has its id from the start: saving twice stores it once.
  const newId = useMemo(() => uuidv7(), [entryId]);
  const api = useApi();
  const entry = useApiQuery('getEntry', { params: { id: entryId ?? '' } }, { enabled: entryId !== undefined });
  // Read from the newest invoices: stale, like them, after any write of documents.
  const defaults = useQuery({ queryKey: apiKey('listEntries', undefined, 'company-defaults'), queryFn: () => companyDefaults(api) });

  const start = useMemo<{ form: InvoiceForm; mode: EditorMode } | { problem: string } | undefined>(() => {
    if (!defaults.data && !defaults.error) return undefined;
    const company = defaults.data ?? {};
    if (!entryId) {
      const form = newInvoiceForm(today(), company.currency);
      form.supplier = partyForm(company.supplier);
      if (company.addons) form.rest = { ...form.rest, $addons: company.addons };
      return { form, mode: 'new' };
    }
    const stored = entry.data;
    if (!stored) return undefined;
    if (stored.signed) return { problem: 'This document is signed: it can no longer change. Make a credit note to correct it.' };
    if (schemaPath(stored.doc_schema) === 'scan') {
      const form = newInvoiceForm(today(), company.currency);
      // A received document: the company is the customer.
      form.customer = partyForm(company.supplier);
      return { form, mode: 'complete' };
    }
    if (schemaPath(stored.doc_schema) !== 'bill/invoice') return { problem: `The editor makes invoices; this entry holds a ${docKind(stored.doc_schema, undefined).toLowerCase()}.` };
    return { form: invoiceForm(documentOf(stored.data) ?? {}), mode: 'draft' };
  }, [entryId, entry.data, defaults.data, defaults.error]);

  const close = () => navigate(entryId ? { screen: 'entries', entryId } : { screen: 'entries' });

  let body;
  if (entry.error) body = <ErrorNotice error={entry.error} onRetry={() => void entry.refetch()} />;
  else if (!start) body = <Loading label="Opening the editor…" />;
  else if ('problem' in start) body = <p className="notice notice-warning editor-problem">{start.problem}</p>;
  else body = <EditorBody key={entryId ?? newId} entryId={entryId ?? newId} stored={entry.data} initial={start.form} mode={start.mode} />;

  return (
    <section className="screen editor-screen" aria-labelledby="editor-title">
      <header className="entry-bar">
        <button type="button" className="btn btn-ghost" onClick={close}>
          <Icon name="left" /> {entryId ? 'Back to the entry' : 'Entries'}
        </button>
        <h1 id="editor-title" className="editor-title">
          {!start || 'problem' in start ? 'Invoice editor' : titleOf(start.mode, start.form, entry.data)}
        </h1>
      </header>
      {body}
    </section>
  );
}

function titleOf(mode: EditorMode, form: InvoiceForm, stored?: Entry): string {
  if (mode === 'complete') return `Complete the draft${stored?.attachments[0] ? `: ${stored.attachments[0].name}` : ''}`;
  if (mode === 'new') return 'New invoice';
  const kind = docKind('https://gobl.org/draft-0/bill/invoice', form.type);
  return `${kind} (draft)`;
}

function EditorBody({ entryId, stored, initial, mode }: { entryId: string; stored?: Entry; initial: InvoiceForm; mode: EditorMode }) {
  const api = useApi();
  const toast = useToast();
  const [form, setForm] = useState(initial);
  const exists = useRef(stored !== undefined);

  const country = useDebounced(form.supplier.tax_country.trim().toUpperCase(), 300);
  // A country GOBL has no regime for is no error here: the editor then offers no regime's taxes.
  const regime = useApiQuery('getRegime', { params: { code: country } }, { enabled: /^[A-Z]{2}$/.test(country) });

  const saved = useCallback(
    (entry: Entry, message: string) => {
      exists.current = true;
      toast(message, { kind: 'success' });
      navigate({ screen: 'entries', entryId: entry.id });
    },
    [toast],
  );

  // The first field to fill: who the invoice is for, or, for a received document, who sent it.
  useEffect(() => {
    document.querySelector<HTMLElement>(`.editor-form [name="${mode === 'complete' ? 'supplier-name' : 'customer-name'}"]`)?.focus();
  }, [mode]);

  return (
    <InvoiceEditor
      api={api}
      entryId={entryId}
      exists={exists}
      stored={stored}
      mode={mode}
      form={form}
      onForm={setForm}
      regime={regime.data}
      onSaved={saved}
    />
  );
}

