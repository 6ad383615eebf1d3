import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';

type PdfJs = typeof import('pdfjs-dist');
let loading: Promise<PdfJs> | undefined;

/**
 * pdf.js, loaded the first time a PDF is opened (it is large, and most sessions
 * never need it), with its worker served from our own origin as the CSP requires.
 */
export function loadPdfJs(): Promise<PdfJs> {
  loading ??= import('pdfjs-dist').then((pdfjs) => {
    pdfjs.GlobalWorkerOptions.workerSrc = workerUrl;
    return pdfjs;
  });
  return loading;
}
