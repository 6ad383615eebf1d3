import jsonpatch from 'fast-json-patch';
import mergePatch from 'json-merge-patch';
import { ApiError, conflict, validationError } from '../api/errors.ts';
import type { Ctx } from '../api/handler.ts';
import { nowIso } from '../clock.ts';
import { recordChange } from '../sync/change-log.ts';
import { deriveDocument, refuseInvalid, toEnvelope, type DerivedDocument, type Envelope } from './document.ts';
import { writeDerivedIndexes } from './derived-index.ts';
import { entryViews, type EntryRow, type EntryView } from './entry-view.ts';
import { issueDateOf, requireEntryRow } from './entries.ts';

export interface PatchEntryInput {
  content_type: 'application/json' | 'application/merge-patch+json' | 'application/json-patch+json';
  data?: Record<string, unknown> | Array<{ op: string; path: string; from?: string; value?: unknown }>;
  folder?: string;
  tags?: string[];
  state?: string;
  allow_invalid?: boolean;
}

/**
 * Changes an entry's document and labels. `data` replaces the envelope
 * (application/json), or is applied to it as an RFC 7396 merge patch or an
 * RFC 6902 JSON patch; the result is validated and re-derived like a new entry.
 * A signed envelope is sealed: its document cannot change.
 */
export function patchEntry(ctx: Ctx, id: string, input: PatchEntryInput): EntryView {
  const { store } = ctx.service;
  const row = requireEntryRow(ctx, id);
  const current = JSON.parse(row.data) as Envelope;

  let envelope = current;
  if (input.data !== undefined) {
    if (row.signed === 1) throw conflict(`entry ${id} is signed; its document can no longer change`);
    envelope = toEnvelope(id, applyChange(current, input)).envelope;
  }
  const doc = deriveDocument(envelope);
  if (input.data !== undefined && doc.faults.length > 0 && !input.allow_invalid) refuseInvalid(doc.faults);

  const updated = writeEntryChange(ctx, row, doc, { folder: input.folder, tags: input.tags, state: input.state });
  return entryViews(store, [updated], true)[0];
}

/**
 * Writes a re-derived document and new labels over an entry in one transaction,
 * with its mention and search rows. Refuses if the entry changed since `row` was
 * read (optimistic check), so two writers never silently overwrite each other.
 */
export function writeEntryChange(
  ctx: Ctx,
  row: EntryRow,
  doc: DerivedDocument,
  labels: { folder?: string; tags?: string[]; state?: string },
): EntryRow {
  const { store } = ctx.service;
  const tags = labels.tags ? [...new Set(labels.tags)] : (JSON.parse(row.tags) as string[]);
  const folder = labels.folder ?? row.folder;
  return store.tx(() => {
    const fresh = requireEntryRow(ctx, row.id);
    if (fresh.version !== row.version) throw conflict(`entry ${row.id} changed while this change was prepared; retry`);
    const values = {
      folder,
      state: labels.state ?? row.state,
      tags: JSON.stringify(tags),
      invalid: doc.faults.length > 0 ? 1 : 0,
      signed: doc.signed ? 1 : 0,
      draft: doc.signed ? 0 : 1,
      doc_schema: doc.docSchema,
      doc_uuid: doc.docUuid,
      issue_date: issueDateOf(doc),
      digest_alg: doc.digest.alg,
      digest_val: doc.digest.val,
      snippet: JSON.stringify(doc.snippet),
      faults: JSON.stringify(doc.faults),
      data: JSON.stringify(doc.envelope),
      version: row.version + 1,
      updated_at: nowIso(),
    };
    store.run(store.q.updateTable('entries').set(values).where('id', '=', row.id));
    writeDerivedIndexes(store, { seq: row.seq, id: row.id, company_id: row.company_id, created_at: row.created_at, folder, tags }, doc);
    recordChange(store, { company_id: row.company_id, kind: 'entry', record_id: row.id });
    return { ...fresh, ...values };
  });
}

function applyChange(current: Envelope, input: PatchEntryInput): Record<string, unknown> {
  const data = input.data!;
  switch (input.content_type) {
    case 'application/json':
      if (Array.isArray(data)) throw validationError('application/json data must be an object', { '$.data': 'must be an object' });
      return data;
    case 'application/merge-patch+json': {
      if (Array.isArray(data)) throw validationError('a merge patch must be an object', { '$.data': 'must be an object' });
      const result = mergePatch.apply(structuredClone(current), data) as unknown;
      if (typeof result !== 'object' || result === null || Array.isArray(result)) {
        throw validationError('the merge patch must leave an object', { '$.data': 'must leave an object' });
      }
      return result as Record<string, unknown>;
    }
    case 'application/json-patch+json': {
      if (!Array.isArray(data)) throw validationError('a JSON patch must be an array of operations', { '$.data': 'must be an array' });
      const error = jsonpatch.validate(data as jsonpatch.Operation[], current);
      if (error) {
        const index = (error as { index?: number }).index ?? 0;
        throw validationError(`JSON patch operation ${index} cannot apply: ${error.name}`, {
          [`$.data[${index}]`]: error.message.split('\n')[0],
        });
      }
      try {
        return jsonpatch.applyPatch(structuredClone(current), data as jsonpatch.Operation[], true, true).newDocument as Record<string, unknown>;
      } catch (err) {
        throw new ApiError('validation', `JSON patch cannot apply: ${(err as Error).message.split('\n')[0]}`, { '$.data': 'cannot apply' });
      }
    }
  }
}
