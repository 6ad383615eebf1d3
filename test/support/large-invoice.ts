import { loadEnvelope } from '../fixtures/gobl/load.ts';

/**
 * A partial invoice (no totals: GOBL builds them) of `lines` lines, each item named
 * `Service n`, so a search finds its last line. With `code`, a document of its own:
 * that code, and no uuid (GOBL gives it one).
 */
export function invoiceWithLines(lines: number, code?: string): Record<string, any> {
  const doc = loadEnvelope('es-invoice-es-es.json').doc;
  delete doc.totals;
  if (code !== undefined) {
    doc.uuid = undefined;
    doc.code = code;
  }
  doc.lines = Array.from({ length: lines }, (_, i) => ({ ...structuredClone(doc.lines[0]), i: i + 1, item: { ...doc.lines[0].item, name: `Service ${i + 1}` } }));
  return doc;
}
