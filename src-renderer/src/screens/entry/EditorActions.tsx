import type { Entry } from '../../api/types.ts';
import { routeHref } from '../../app/routes.ts';
import { Icon } from '../../ui/Icon.tsx';
import { schemaPath } from '../entries/doc-kind.ts';

/**
 * What the invoice editor can do with this entry: complete a scanned or PDF draft into the
 * invoice it shows, go on editing an unsigned invoice, or make the credit note of an invoice.
 */
export function EditorActions({ entry, onCredit }: { entry: Entry; onCredit(): void }) {
  const path = schemaPath(entry.doc_schema);
  const editor = routeHref({ screen: 'editor', entryId: entry.id });
  if (path === 'scan') {
    return (
      <a className="btn btn-primary" href={editor}>
        <Icon name="file" /> Complete this draft
      </a>
    );
  }
  if (path !== 'bill/invoice') return null;
  const type = entry.snippet.type;
  return (
    <>
      {!entry.signed && (
        <a className="btn" href={editor}>
          <Icon name="code" /> Edit invoice
        </a>
      )}
      {type !== 'credit-note' && (
        <button type="button" className="btn" onClick={onCredit}>
          <Icon name="refresh" /> New credit note…
        </button>
      )}
    </>
  );
}
