import { createHash } from 'node:crypto';
import { canonicalJson, defaultFolderOf } from '../gobl/index.ts';
import { conflict, notFound } from '../api/errors.ts';
import type { Ctx } from '../api/handler.ts';
import { nowIso } from '../clock.ts';
import { deriveDocument, refuseInvalid, toEnvelope, type DerivedDocument } from './document.ts';
import { writeDerivedIndexes } from './derived-index.ts';
import { entryViews, type EntryRow, type EntryView } from './entry-view.ts';

export interface CreateEntryInput {
  data: Record<string, unknown>;
  key?: string;
  folder?: string;
  tags?: string[];
  state?: string;
  allow_invalid?: boolean;
}

export function findEntryRow(ctx: Ctx, id: string): EntryRow | undefined {
  const { store } = ctx.service;
  return store.first(
    store.q.selectFrom('entries').selectAll().where('id', '=', id).where('company_id', '=', ctx.caller.companyId),
  );
}

export function requireEntryRow(ctx: Ctx, id: string): EntryRow {
  const row = findEntryRow(ctx, id);
  if (!row) throw notFound(`entry ${id}`);
  return row;
}

export function getEntry(ctx: Ctx, id: string): EntryView {
  return entryViews(ctx.service.store, [requireEntryRow(ctx, id)], true)[0];
}

export function getEntryByKey(ctx: Ctx, key: string): EntryView {
  const { store } = ctx.service;
  const row = store.first(
    store.q.selectFrom('entries').selectAll().where('company_id', '=', ctx.caller.companyId).where('key', '=', key),
  );
  if (!row) throw notFound(`entry with key ${JSON.stringify(key)}`);
  return entryViews(store, [row], true)[0];
}

/**
 * Creates an entry, or answers the existing one when the same id comes again with
 * the same body (idempotent PUT, safe retries). Another body under a used id, or a
 * key already used in the company, is a 409. Derivation (validation, digest,
 * snippet, mentions) runs before the transaction; the transaction only writes.
 */
export function createEntry(ctx: Ctx, id: string | undefined, input: CreateEntryInput): EntryView {
  const { store } = ctx.service;
  const prepared = toEnvelope(id, input.data);
  const doc = deriveDocument(prepared.envelope);
  if (doc.faults.length > 0 && !input.allow_invalid) refuseInvalid(doc.faults);

  const requestHash = createHash('sha256')
    .update(canonicalJson({ data: input.data, key: input.key, folder: input.folder, tags: input.tags, state: input.state }))
    .digest('hex');

  const row = store.tx(() => {
    const existing = store.first(store.q.selectFrom('entries').selectAll().where('id', '=', prepared.id));
    if (existing) {
      if (existing.company_id === ctx.caller.companyId && existing.request_hash === requestHash) return existing;
      throw conflict(`entry ${prepared.id} already exists with a different body`);
    }
    if (input.key !== undefined) {
      const holder = store.first(
        store.q.selectFrom('entries').select('id').where('company_id', '=', ctx.caller.companyId).where('key', '=', input.key),
      );
      if (holder) throw conflict(`key ${JSON.stringify(input.key)} is already used by entry ${holder.id}`);
    }
    return insertEntry(ctx, prepared.id, doc, input, requestHash);
  });
  return entryViews(store, [row], true)[0];
}

function insertEntry(ctx: Ctx, id: string, doc: DerivedDocument, input: CreateEntryInput, requestHash: string): EntryRow {
  const { store } = ctx.service;
  const at = nowIso();
  const tags = [...new Set(input.tags ?? [])];
  const values = {
    id,
    company_id: ctx.caller.companyId,
    key: input.key ?? null,
    folder: input.folder ?? defaultFolderOf(doc.docSchema),
    state: input.state ?? (doc.signed ? 'completed' : 'draft'),
    context: '',
    draft: doc.signed ? 0 : 1,
    invalid: doc.faults.length > 0 ? 1 : 0,
    signed: doc.signed ? 1 : 0,
    doc_schema: doc.docSchema,
    doc_uuid: doc.docUuid,
    env_schema: doc.envSchema,
    digest_alg: doc.digest.alg,
    digest_val: doc.digest.val,
    snippet: JSON.stringify(doc.snippet),
    tags: JSON.stringify(tags),
    faults: JSON.stringify(doc.faults),
    data: JSON.stringify(doc.envelope),
    request_hash: requestHash,
    version: 1,
    created_at: at,
    updated_at: at,
  };
  const inserted = store.first(store.q.insertInto('entries').values(values).returning('seq'))!;
  writeDerivedIndexes(store, { seq: inserted.seq, id, company_id: values.company_id, created_at: at, folder: values.folder, tags }, doc);
  return { ...values, seq: inserted.seq };
}
