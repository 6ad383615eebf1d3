import { useEffect, useRef, useState } from 'react';
import type { PDFDocumentProxy, PDFPageProxy } from 'pdfjs-dist';
import { ErrorNotice } from '../../ui/ErrorNotice.tsx';
import { loadPdfJs } from './pdfjs.ts';

const MIN_SCALE = 0.5;
const MAX_SCALE = 3;

/**
 * A PDF rendered in the page: each page a canvas with pdf.js's text layer over
 * it, so text can be selected, searched with Ctrl+F and read by screen readers.
 * Scripts, forms and XFA in the PDF are never run.
 */
export function PdfViewer({ bytes, name }: { bytes: Uint8Array; name: string }) {
  const pagesRef = useRef<HTMLDivElement>(null);
  const [doc, setDoc] = useState<PDFDocumentProxy>();
  const [error, setError] = useState<unknown>();
  // undefined = fit the width of the panel
  const [zoom, setZoom] = useState<number>();
  const [scale, setScale] = useState<number>();
  const [rendered, setRendered] = useState(0);

  useEffect(() => {
    let cancelled = false;
    let opened: PDFDocumentProxy | undefined;
    setError(undefined);
    loadPdfJs()
      .then((pdfjs) =>
        pdfjs.getDocument({
          // pdf.js takes ownership of the buffer it is given: hand it a copy.
          data: bytes.slice(),
          isEvalSupported: false,
          enableXfa: false,
          disableFontFace: false,
          useSystemFonts: true,
        }).promise,
      )
      .then(
        (pdf) => {
          opened = pdf;
          if (cancelled) void pdf.destroy();
          else setDoc(pdf);
        },
        (err: unknown) => !cancelled && setError(err),
      );
    return () => {
      cancelled = true;
      void opened?.destroy();
    };
  }, [bytes]);

  useEffect(() => {
    const host = pagesRef.current;
    if (!doc || !host) return;
    let cancelled = false;
    const tasks: Array<{ cancel(): void }> = [];
    host.replaceChildren();
    setRendered(0);

    (async () => {
      const pdfjs = await loadPdfJs();
      const first = await doc.getPage(1);
      const natural = first.getViewport({ scale: 1 });
      const fit = Math.max(MIN_SCALE, Math.min(MAX_SCALE, (host.clientWidth - 2) / natural.width));
      const useScale = zoom ?? fit;
      if (!cancelled) setScale(useScale);
      for (let n = 1; n <= doc.numPages && !cancelled; n++) {
        const page: PDFPageProxy = n === 1 ? first : await doc.getPage(n);
        if (cancelled) return;
        const viewport = page.getViewport({ scale: useScale });
        const rawWidth = (viewport as unknown as { rawDims: { pageWidth: number } }).rawDims.pageWidth;
        const box = document.createElement('div');
        box.className = 'pdf-page';
        box.dataset.page = String(n);
        box.style.setProperty('--total-scale-factor', String(viewport.width / rawWidth));
        box.style.width = `${Math.floor(viewport.width)}px`;
        box.style.height = `${Math.floor(viewport.height)}px`;

        const canvas = document.createElement('canvas');
        const ratio = window.devicePixelRatio || 1;
        canvas.width = Math.floor(viewport.width * ratio);
        canvas.height = Math.floor(viewport.height * ratio);
        canvas.style.width = `${Math.floor(viewport.width)}px`;
        canvas.style.height = `${Math.floor(viewport.height)}px`;
        canvas.setAttribute('aria-hidden', 'true');
        const text = document.createElement('div');
        text.className = 'textLayer';
        box.append(canvas, text);
        host.append(box);

        const render = page.render({ canvas, viewport, transform: ratio === 1 ? undefined : [ratio, 0, 0, ratio, 0, 0] });
        tasks.push(render);
        const layer = new pdfjs.TextLayer({ textContentSource: page.streamTextContent(), container: text, viewport });
        tasks.push(layer);
        await Promise.all([render.promise, layer.render()]);
        if (!cancelled) setRendered(n);
      }
    })().catch((err: unknown) => {
      // A render cancelled by a zoom change is not an error.
      if (!cancelled && (err as Error)?.name !== 'RenderingCancelledException') setError(err);
    });
    return () => {
      cancelled = true;
      for (const task of tasks) task.cancel();
    };
  }, [doc, zoom]);

  const step = (factor: number) => setZoom(Math.max(MIN_SCALE, Math.min(MAX_SCALE, (scale ?? 1) * factor)));

  return (
    <div className="pdf-viewer">
      <div className="viewer-toolbar" role="toolbar" aria-label="PDF">
        <button type="button" className="btn btn-sm" onClick={() => step(1 / 1.2)} aria-label="Zoom out">
          −
        </button>
        <span className="muted zoom-level" aria-live="polite">
          {scale ? `${Math.round(scale * 100)} %` : ''}
        </span>
        <button type="button" className="btn btn-sm" onClick={() => step(1.2)} aria-label="Zoom in">
          +
        </button>
        <button type="button" className="btn btn-sm" onClick={() => setZoom(undefined)} disabled={zoom === undefined}>
          Fit width
        </button>
        {doc && (
          <span className="muted" role="status">
            {rendered < doc.numPages ? `Rendering page ${rendered + 1} of ${doc.numPages}…` : `${doc.numPages} ${doc.numPages === 1 ? 'page' : 'pages'}`}
          </span>
        )}
      </div>
      {error !== undefined && <ErrorNotice error={new Error(`${name} could not be shown as a PDF: ${(error as Error)?.message ?? error}`)} />}
      <div className="pdf-pages" ref={pagesRef} aria-label={`${name}, rendered`} role="document" tabIndex={0} />
    </div>
  );
}
