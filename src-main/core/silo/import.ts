import { toApiError, type ErrorBody } from '../api/errors.ts';
import type { Ctx } from '../api/handler.ts';
import { findTwin, scannedFileHash } from './duplicates.ts';
import { commitEntry, prepareNewEntry, type CreateEntryInput, type PreparedEntry } from './entries.ts';

export interface ImportItem extends CreateEntryInput {
  id?: string;
}

export interface ImportResult {
  index: number;
  status: 'created' | 'exists' | 'duplicate' | 'error';
  id?: string;
  error?: ErrorBody;
  /** another entry of the company holds the same document (same digest) or the same file bytes */
  duplicate_of?: string;
  duplicate_by?: 'digest' | 'file';
}

/** What to do with a document the company holds already: store it again (flagged), or leave it out. */
export type OnDuplicate = 'store' | 'skip';

/**
 * Stores many documents in one transaction, which is what makes a bulk import
 * fast (one commit instead of one per entry). Each item goes through GOBL as a
 * single POST would (built when partial, checked when complete). Each item stands alone: an invalid
 * or conflicting one is reported in its result and the others are still stored
 * (each item is its own savepoint). Replaying the same batch changes nothing.
 *
 * A document the company already holds under another id (the same digest, or for a
 * scanned file the same bytes under any name) is a duplicate: stored and named in
 * `duplicate_of` with `store`, left out with `skip` (the caller then decides for all
 * of them at once, and sends those it wants kept again with `store`).
 */
export function importEntries(ctx: Ctx, items: ImportItem[], onDuplicate: OnDuplicate = 'store') {
  const { store } = ctx.service;
  const prepared = items.map((item, index): { index: number; p?: PreparedEntry; error?: ErrorBody } => {
    try {
      return { index, p: prepareNewEntry(ctx, item.id, item) };
    } catch (err) {
      return { index, error: toApiError(err).toBody() };
    }
  });

  // Files met in this call: the same bytes twice in one import are duplicates too.
  const seenFiles = new Map<string, string>();
  const results = store.tx(() =>
    prepared.map(({ index, p, error }): ImportResult => {
      if (!p) return { index, status: 'error', error };
      try {
        const replay = store.first(store.q.selectFrom('entries').select('id').where('id', '=', p.id));
        // The same id again is a replay or a conflict (commitEntry tells), never a duplicate.
        const twin = replay ? undefined : findTwin(ctx, p.id, p.doc, seenFiles);
        if (twin && onDuplicate === 'skip') return { index, status: 'duplicate', duplicate_of: twin.id, duplicate_by: twin.by };
        const { row, created } = store.tx(() => commitEntry(ctx, p));
        const hash = scannedFileHash(p.doc);
        if (hash && !seenFiles.has(hash)) seenFiles.set(hash, row.id);
        return { index, status: created ? 'created' : 'exists', id: row.id, ...(twin ? { duplicate_of: twin.id, duplicate_by: twin.by } : {}) };
      } catch (err) {
        return { index, status: 'error', id: p.id, error: toApiError(err).toBody() };
      }
    }),
  );
  const count = (s: ImportResult['status']) => results.filter((r) => r.status === s).length;
  return { results, created: count('created'), existing: count('exists'), duplicates: count('duplicate'), failed: count('error') };
}
