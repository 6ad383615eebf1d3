import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { Entry } from '../../api/types.ts';
import { useApi } from '../../app/ApiContext.tsx';
import { navigate } from '../../app/routes.ts';
import { apiKey } from '../../data/keys.ts';
import { Dialog } from '../../ui/Dialog.tsx';
import { ErrorNotice } from '../../ui/ErrorNotice.tsx';
import { Field } from '../../ui/Field.tsx';
import { obj, type Json } from './gobl.ts';

interface ExtOption {
  key: string;
  title: string;
  values: Array<{ code: string; title: string }>;
}

/** The extension codes GOBL's correction options take for this document's regime and addons (es-facturae-correction…). */
function extOptions(schema: Json | null | undefined): ExtOption[] {
  const defs = obj(schema?.$defs);
  const options = obj(defs?.['bill.CorrectionOptions']);
  const ext = obj(obj(obj(options?.properties)?.ext)?.properties) ?? {};
  return Object.entries(ext).map(([key, def]) => {
    const d = obj(def) ?? {};
    const values = (Array.isArray(d.oneOf) ? d.oneOf : []).map((v) => obj(v) ?? {}).filter((v) => typeof v.const === 'string').map((v) => ({ code: String(v.const), title: typeof v.title === 'string' ? v.title : String(v.const) }));
    return { key, title: typeof d.title === 'string' ? d.title : key, values };
  });
}

/**
 * Makes GOBL's credit note of an invoice (POST /silo/v1/entries with previous_id and
 * correct) as a draft, then opens it in the editor to change lines and issue it.
 */
export function CreditNoteDialog({ entry, open, onClose }: { entry: Entry; open: boolean; onClose(): void }) {
  const api = useApi();
  const [reason, setReason] = useState('');
  const [ext, setExt] = useState<Record<string, string>>({});
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  // The options depend on the document's regime and addons: asked once per version of the entry, when the dialog opens.
  const schema = useQuery({
    queryKey: apiKey('correctGobl', { id: entry.id, version: entry.version }, 'options'),
    queryFn: async () => (await api.correctGobl({ body: { data: entry.data ?? {}, show_options: true } })).data,
    enabled: open,
  });
  const exts = extOptions(schema.data);

  const make = async () => {
    setBusy(true);
    setError(undefined);
    try {
      const chosen = Object.fromEntries(Object.entries(ext).filter(([, v]) => v !== ''));
      const credit = await api.createEntry({
        body: {
          previous_id: entry.id,
          correct: { type: 'credit-note', ...(reason.trim() ? { reason: reason.trim() } : {}), ...(Object.keys(chosen).length > 0 ? { ext: chosen } : {}) },
          folder: entry.folder,
        },
      });
      onClose();
      navigate({ screen: 'editor', entryId: credit.id });
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog
      open={open}
      title="New credit note"
      onClose={onClose}
      footer={
        <>
          <button type="button" className="btn" onClick={onClose}>
            Cancel
          </button>
          <button type="button" className="btn btn-primary" disabled={busy} onClick={make}>
            {busy ? 'Making it…' : 'Make the credit note'}
          </button>
        </>
      }
    >
      <p className="muted">GOBL makes the credit note from this invoice, naming it as the one corrected. It opens in the editor as a draft, to change its lines before issuing it.</p>
      <Field label="Reason">
        {(c) => <input {...c} className="input" value={reason} onChange={(e) => setReason(e.target.value)} placeholder="Goods returned" />}
      </Field>
      {exts.map((option) => (
        <Field key={option.key} label={option.title} hint="Asked by this invoice's regime or addons">
          {(c) => (
            <select {...c} className="select" value={ext[option.key] ?? ''} onChange={(e) => setExt({ ...ext, [option.key]: e.target.value })}>
              <option value="">—</option>
              {option.values.map((v) => (
                <option key={v.code} value={v.code}>
                  {v.code} · {v.title}
                </option>
              ))}
            </select>
          )}
        </Field>
      ))}
      <ErrorNotice error={error} />
    </Dialog>
  );
}
