import type { ReactNode } from 'react';
import { formatDay } from '../../format/date.ts';
import { formatMoney } from '../../format/money.ts';
import { docKind } from '../entries/doc-kind.ts';
import { humanKey, obj, objs, refNumber, str, type Json } from './gobl.ts';
import { PartyBlock } from './PartyBlock.tsx';

function PaperHead({ doc }: { doc: Json }) {
  return (
    <header className="paper-head">
      <div>
        <p className="paper-kind">{docKind(str(doc.$schema), str(doc.type))}</p>
        <h2 className="paper-number">{refNumber(doc) ?? 'No number'}</h2>
      </div>
      <dl className="kv paper-dates">
        <dt>Issued</dt>
        <dd>{formatDay(str(doc.issue_date)) || '—'}</dd>
        {str(doc.currency) && (
          <>
            <dt>Currency</dt>
            <dd>{str(doc.currency)}</dd>
          </>
        )}
      </dl>
    </header>
  );
}

/** A payment (receipt, advice, request): the documents it settles, the methods, the total. */
/** The paper of a payment or status message: its head and both parties, then the body. */
function PaperFrame({ doc, children }: { doc: Json; children: ReactNode }) {
  return (
    <article className="paper" aria-label={docKind(str(doc.$schema), str(doc.type))}>
      <PaperHead doc={doc} />
      <div className="paper-parties">
        <PartyBlock role="Supplier" party={doc.supplier} />
        <PartyBlock role="Customer" party={doc.customer} />
      </div>
      {children}
    </article>
  );
}

export function PaymentDocument({ doc }: { doc: Json }) {
  const currency = str(doc.currency);
  const money = (value: unknown) => formatMoney(str(value), currency);
  return (
    <PaperFrame doc={doc}>
      <table className="data-table lines-table">
        <caption className="visually-hidden">Documents paid</caption>
        <thead>
          <tr>
            <th scope="col">Document</th>
            <th scope="col">Issued</th>
            <th scope="col">Description</th>
            <th scope="col" className="num">
              Amount
            </th>
          </tr>
        </thead>
        <tbody>
          {objs(doc.lines).map((line, i) => {
            const ref = obj(line.document);
            return (
              <tr key={i}>
                <td className="strong">{refNumber(ref) ?? '—'}</td>
                <td>{formatDay(str(ref?.issue_date))}</td>
                <td>{str(ref?.description) ?? str(line.description) ?? ''}</td>
                <td className="num strong">{money(line.amount)}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <div className="paper-summary">
        <dl className="kv">
          {objs(doc.methods).map((m, i) => (
            <div key={i} className="contents">
              <dt>Method</dt>
              <dd>
                {humanKey(str(m.key))} {str(m.amount) && <span className="muted">{money(m.amount)}</span>}
              </dd>
            </div>
          ))}
        </dl>
        <table className="totals-table" aria-label="Totals">
          <tbody>
            <tr className="grand-total">
              <th scope="row">Total{currency ? ` (${currency})` : ''}</th>
              <td className="num">{money(doc.total)}</td>
            </tr>
          </tbody>
        </table>
      </div>
      <DocNotes doc={doc} />
    </PaperFrame>
  );
}

/** A status message about other documents (accepted, paid, rejected…). */
export function StatusDocument({ doc }: { doc: Json }) {
  return (
    <PaperFrame doc={doc}>
      <table className="data-table lines-table">
        <caption className="visually-hidden">Status lines</caption>
        <thead>
          <tr>
            <th scope="col">Status</th>
            <th scope="col">Document</th>
            <th scope="col">Issued</th>
            <th scope="col">Description</th>
          </tr>
        </thead>
        <tbody>
          {objs(doc.lines).map((line, i) => {
            const ref = obj(line.doc);
            return (
              <tr key={i}>
                <td className="strong">{humanKey(str(line.key))}</td>
                <td>{refNumber(ref) ?? '—'}</td>
                <td>{formatDay(str(ref?.issue_date))}</td>
                <td>{str(line.description)}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <DocNotes doc={doc} />
    </PaperFrame>
  );
}

/** A scanned or uploaded file waiting to be turned into a document. */
export function ScanDocument({ doc, attachments }: { doc: Json; attachments: number }) {
  return (
    <article className="paper paper-scan" aria-label="Draft from a file">
      <p className="paper-kind">Draft from a file</p>
      <h2 className="paper-number">{str(doc.name) ?? 'Imported file'}</h2>
      <p className="muted">
        This entry holds {attachments === 1 ? 'a file' : `${attachments} files`} imported as is. Open the Files tab to see it; a workflow can turn it
        into a document.
      </p>
    </article>
  );
}

/** A note/message document. */
export function MessageDocument({ doc }: { doc: Json }) {
  return (
    <article className="paper" aria-label="Message">
      <p className="paper-kind">Message</p>
      <h2 className="paper-number">{str(doc.title) ?? 'Message'}</h2>
      <p className="message-text">{str(doc.content)}</p>
    </article>
  );
}

/** Any other document: its top-level fields; the JSON tab has the rest. */
export function GenericDocument({ doc }: { doc: Json }) {
  const simple = Object.entries(doc).filter(([, v]) => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean');
  return (
    <article className="paper" aria-label="Document">
      <p className="paper-kind">{docKind(str(doc.$schema), str(doc.type))}</p>
      <dl className="kv">
        {simple.map(([k, v]) => (
          <div key={k} className="contents">
            <dt>{k}</dt>
            <dd>{String(v)}</dd>
          </div>
        ))}
      </dl>
      <p className="muted">The JSON tab shows the whole document.</p>
    </article>
  );
}

function DocNotes({ doc }: { doc: Json }) {
  const notes = objs(doc.notes);
  if (notes.length === 0) return null;
  return (
    <section className="paper-notes" aria-label="Notes">
      <h3 className="section-title">Notes</h3>
      {notes.map((note, i) => (
        <p key={i}>
          {str(note.key) && <span className="muted">{humanKey(str(note.key))}: </span>}
          {str(note.text)}
        </p>
      ))}
    </section>
  );
}
