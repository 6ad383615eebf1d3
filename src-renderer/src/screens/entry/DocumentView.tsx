import type { Entry } from '../../api/types.ts';
import { schemaPath } from '../entries/doc-kind.ts';
import { documentOf } from './gobl.ts';
import { InvoiceDocument } from './InvoiceDocument.tsx';
import { GenericDocument, MessageDocument, PaymentDocument, ScanDocument, StatusDocument } from './OtherDocuments.tsx';

/** The entry's document, laid out for reading according to what it is. */
export function DocumentView({ entry }: { entry: Entry }) {
  const doc = documentOf(entry.data);
  if (!doc) return <p className="muted">This entry holds no document.</p>;
  switch (schemaPath(entry.doc_schema || (doc.$schema as string | undefined))) {
    case 'bill/invoice':
    case 'bill/order':
    case 'bill/delivery':
      return <InvoiceDocument doc={doc} />;
    case 'bill/payment':
      return <PaymentDocument doc={doc} />;
    case 'bill/status':
      return <StatusDocument doc={doc} />;
    case 'note/message':
      return <MessageDocument doc={doc} />;
    case 'scan':
      return <ScanDocument doc={doc} attachments={entry.attachments.length} />;
    default:
      return <GenericDocument doc={doc} />;
  }
}
