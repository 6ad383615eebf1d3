import { createHash } from 'node:crypto';
import { canonicalJson, defaultFolderOf, isEnvelope } from '../gobl/index.ts';
import { conflict, notFound } from '../api/errors.ts';
import type { Ctx } from '../api/handler.ts';
import { nowIso } from '../clock.ts';
import { recordChange } from '../sync/change-log.ts';
import { admitDocument } from './admit.ts';
import { correctionOf } from './correction.ts';
import { deriveDocument, refuseInvalid, toEnvelope, type DerivedDocument } from './document.ts';
import { writeDerivedIndexes } from './derived-index.ts';
import { entryView, entryViews, type EntryRow, type EntryView } from './entry-view.ts';
import { optionsAt, underData } from './faults-error.ts';
import { checkIfMatch, type EntryPreconditions } from './if-match.ts';
import { sigsCheckFor } from './signatures.ts';
import type { PatchContentType } from './patch-apply.ts';

export interface CreateEntryInput {
  /** the document or envelope; with `previous_id`, an optional patch of the correction (see content_type) */
  data?: Record<string, unknown> | Array<Record<string, unknown>>;
  key?: string;
  folder?: string;
  tags?: string[];
  state?: string;
  /** store a document with faults, as given, flagged `invalid` with its faults */
  allow_invalid?: boolean;
  /** how `data` applies to the correction of `previous_id` (a merge patch or a JSON patch) */
  content_type?: PatchContentType;
  /** the entry this one corrects (with `correct`) */
  previous_id?: string;
  /** GOBL correction options (`type`, `reason`, `series`, `stamps`, `ext`…) */
  correct?: Record<string, unknown>;
  /** sign the envelope with the instance key once built */
  sign?: boolean;
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

/** An entry ready to be written: everything derived, nothing stored yet. */
export interface PreparedEntry {
  id: string;
  doc: DerivedDocument;
  input: CreateEntryInput;
  requestHash: string;
}

/**
 * What makes a replay a replay: the request as sent (an envelope's head.dig aside,
 * which is derived), not what was built from it, since a build gives a document
 * without a uuid a new one every time.
 */
function requestHashOf(input: CreateEntryInput): string {
  const data = input.data && !Array.isArray(input.data) && isEnvelope(input.data) && typeof input.data.head === 'object' && input.data.head !== null
    ? { ...input.data, head: { ...(input.data.head as Record<string, unknown>), dig: undefined } }
    : input.data;
  const { allow_invalid: _ignored, ...rest } = input;
  return createHash('sha256').update(canonicalJson({ ...rest, data })).digest('hex');
}

/**
 * An entry stored as given, as another instance or a conflict copy has it: checked
 * by GOBL, never rebuilt. Throws 422 for a document with faults unless `allow_invalid`.
 */
export function prepareEntry(id: string | undefined, input: CreateEntryInput): PreparedEntry {
  const prepared = toEnvelope(id, input.data as Record<string, unknown>);
  const doc = deriveDocument(prepared.envelope, prepared.digest);
  if (doc.faults.length > 0 && !input.allow_invalid) refuseInvalid(doc.faults);
  return { id: prepared.id, doc, input, requestHash: requestHashOf(input) };
}

/**
 * The CPU part of creating an entry from a client's request, done outside any
 * transaction: the correction of `previous_id` when asked, then GOBL's build (partial
 * data) or check (a complete or signed document), signing, and everything derived.
 * Throws 422 with the faults of a document GOBL refuses, unless `allow_invalid`.
 */
export function prepareNewEntry(ctx: Ctx, id: string | undefined, input: CreateEntryInput): PreparedEntry {
  const now = new Date();
  const data = input.previous_id !== undefined
    ? correctionOf(ctx, input.previous_id, input.correct ?? {}, { data: input.data, content_type: input.content_type }, now)
    : (input.data as Record<string, unknown>);
  const admitted = admitDocument(id, data, {
    allowInvalid: input.allow_invalid,
    sign: input.sign,
    keys: ctx.service.keys,
    now,
    requestPath: input.previous_id !== undefined ? optionsAt('correct') : underData,
    checkSigs: sigsCheckFor(ctx),
  });
  const doc = deriveDocument(admitted.envelope, admitted.digest, admitted.faults);
  return { id: admitted.id, doc, input, requestHash: requestHashOf(input) };
}

/**
 * Writes a prepared entry, or finds the one already there: the same id with the
 * same request is an idempotent replay; another body under the id, or a key already
 * used in the company, is a 409. Call inside a transaction.
 */
export function commitEntry(ctx: Ctx, p: PreparedEntry): { row: EntryRow; created: boolean } {
  const { store } = ctx.service;
  const existing = store.first(store.q.selectFrom('entries').selectAll().where('id', '=', p.id));
  if (existing) {
    if (existing.company_id === ctx.caller.companyId && existing.request_hash === p.requestHash) return { row: existing, created: false };
    throw conflict(`entry ${p.id} already exists with a different body`);
  }
  if (p.input.key !== undefined) {
    const holder = store.first(
      store.q.selectFrom('entries').select('id').where('company_id', '=', ctx.caller.companyId).where('key', '=', p.input.key),
    );
    if (holder) throw conflict(`key ${JSON.stringify(p.input.key)} is already used by entry ${holder.id}`);
  }
  const row = insertEntry(ctx, p.id, p.doc, p.input, p.requestHash);
  recordChange(store, { company_id: row.company_id, kind: 'entry', record_id: row.id });
  return { row, created: true };
}

/**
 * Creates one entry from a client's request (idempotent under its id); see
 * prepareNewEntry and commitEntry. With `If-Match` (PUT), the entry must exist at
 * that version: a stale one is a 412 before anything is built, and otherwise the
 * PUT behaves as without it (a replay answers the entry, another body is a 409).
 */
export function createEntry(ctx: Ctx, id: string | undefined, input: CreateEntryInput, preconditions?: EntryPreconditions): EntryView {
  const { store } = ctx.service;
  const versionOf = () => (id === undefined ? undefined : findEntryRow(ctx, id)?.version);
  checkIfMatch(id ?? '(new)', versionOf(), preconditions);
  const prepared = prepareNewEntry(ctx, id, input);
  const { row, created } = store.tx(() => {
    checkIfMatch(id ?? '(new)', versionOf(), preconditions);
    return commitEntry(ctx, prepared);
  });
  // A new entry has no attachments or meta yet, and its document is at hand.
  return created ? entryView(row, [], [], false, undefined, prepared.doc.envelope) : entryViews(ctx.service.store, [row], true)[0];
}

export function issueDateOf(doc: DerivedDocument): string | null {
  const date = doc.snippet.issue_date;
  return date && /^\d{4}-\d{2}-\d{2}$/.test(date) ? date : null;
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
    issue_date: issueDateOf(doc),
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
  return { ...values, seq: inserted.seq, step_faults: '[]' };
}
