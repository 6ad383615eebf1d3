import type { ExportSelection } from './selection.ts';

/** "silodesk-invoices-2026-03-02.zip": what was exported and when, safe on any file system. */
export function exportFileName(selection: ExportSelection, extension: string, now = new Date()): string {
  const what = selection.ids ? 'selection' : (selection.folder ?? 'entries');
  const safe = what.normalize('NFKD').replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[-.]+|[-.]+$/g, '').slice(0, 60) || 'entries';
  return `silodesk-${safe}-${now.toISOString().slice(0, 10)}.${extension}`;
}
