import { useEffect, useState } from 'react';
import type { Attachment } from '../../api/types.ts';
import { Loading } from '../../ui/EmptyState.tsx';
import { ErrorNotice } from '../../ui/ErrorNotice.tsx';
import { PdfViewer } from '../attachments/PdfViewer.tsx';
import { loadPdfJs } from '../attachments/pdfjs.ts';
import { useAttachmentBytes } from '../attachments/useAttachmentFile.ts';
import { guessInvoice, type InvoiceGuess } from './invoice-guess.ts';
import { pdfLines } from './pdf-text.ts';

/** A draft's file beside the form: a PDF shown page by page, and its text layer read for the form. */
export function SourcePanel({ attachment, onGuess }: { attachment: Attachment; onGuess(guess: InvoiceGuess, lines: number): void }) {
  const isPdf = attachment.mime === 'application/pdf' || /\.pdf$/i.test(attachment.name);
  const file = useAttachmentBytes(attachment);
  const [read, setRead] = useState(false);
  const bytes = file.data;

  useEffect(() => {
    if (!bytes || !isPdf || read) return;
    let cancelled = false;
    (async () => {
      const pdfjs = await loadPdfJs();
      const pdf = await pdfjs.getDocument({ data: bytes.slice(), isEvalSupported: false, enableXfa: false }).promise;
      try {
        const lines = await pdfLines(pdf);
        if (!cancelled) onGuess(guessInvoice(lines), lines.length);
      } finally {
        void pdf.destroy();
      }
    })().catch(() => !cancelled && onGuess({ rates: [] }, 0)).finally(() => !cancelled && setRead(true));
    return () => {
      cancelled = true;
    };
  }, [bytes, isPdf, read, onGuess]);

  return (
    <aside className="editor-source" aria-label={`The draft's file: ${attachment.name}`}>
      {file.error ? <ErrorNotice error={file.error} onRetry={() => void file.refetch()} /> : !bytes ? <Loading label="Opening the file…" /> : isPdf ? <PdfViewer bytes={bytes} name={attachment.name} /> : <ImagePreview bytes={bytes} attachment={attachment} />}
    </aside>
  );
}

function ImagePreview({ bytes, attachment }: { bytes: Uint8Array; attachment: Attachment }) {
  const [url, setUrl] = useState<string>();
  useEffect(() => {
    if (!attachment.mime.startsWith('image/')) return;
    const made = URL.createObjectURL(new Blob([bytes as Uint8Array<ArrayBuffer>], { type: attachment.mime }));
    setUrl(made);
    return () => URL.revokeObjectURL(made);
  }, [bytes, attachment.mime]);
  if (!url) return <p className="muted">This file cannot be shown here; its text is not read.</p>;
  return <img className="source-image" src={url} alt={`The scanned document ${attachment.name}`} />;
}
