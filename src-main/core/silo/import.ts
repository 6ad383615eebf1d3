import { toApiError, type ErrorBody } from '../api/errors.ts';
import type { Ctx } from '../api/handler.ts';
import { commitEntry, prepareEntry, type CreateEntryInput, type PreparedEntry } from './entries.ts';

export interface ImportItem extends CreateEntryInput {
  id?: string;
}

export interface ImportResult {
  index: number;
  status: 'created' | 'exists' | 'error';
  id?: string;
  error?: ErrorBody;
  /** another entry of the company holds the same document (same digest) */
  duplicate_of?: string;
}

/**
 * Stores many documents in one transaction, which is what makes a bulk import
 * fast (one commit instead of one per entry). Each item stands alone: an invalid
 * or conflicting one is reported in its result and the others are still stored
 * (each item is its own savepoint). Replaying the same batch changes nothing.
 */
export function importEntries(ctx: Ctx, items: ImportItem[]) {
  const { store } = ctx.service;
  const prepared = items.map((item, index): { index: number; p?: PreparedEntry; error?: ErrorBody } => {
    try {
      return { index, p: prepareEntry(item.id, item) };
    } catch (err) {
      return { index, error: toApiError(err).toBody() };
    }
  });

  const results = store.tx(() =>
    prepared.map(({ index, p, error }): ImportResult => {
      if (!p) return { index, status: 'error', error };
      try {
        const { row, created } = store.tx(() => commitEntry(ctx, p));
        const twin = store.first(
          store.q
            .selectFrom('entries')
            .select('id')
            .where('company_id', '=', ctx.caller.companyId)
            .where('digest_val', '=', row.digest_val)
            .where('id', '!=', row.id)
            .limit(1),
        );
        return { index, status: created ? 'created' : 'exists', id: row.id, ...(twin ? { duplicate_of: twin.id } : {}) };
      } catch (err) {
        return { index, status: 'error', id: p.id, error: toApiError(err).toBody() };
      }
    }),
  );
  const count = (s: ImportResult['status']) => results.filter((r) => r.status === s).length;
  return { results, created: count('created'), existing: count('exists'), failed: count('error') };
}
