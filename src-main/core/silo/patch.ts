import { conflict, notFound } from '../api/errors.ts';
import type { Operations } from '../api/contract/index.ts';
import type { Ctx } from '../api/handler.ts';
import type { ParsedInput } from '../api/operation.ts';
import { nowIso } from '../clock.ts';
import { LOCAL } from '../db/write-scopes.ts';
import { admitDocument } from './admit.ts';
import { parseStoredJson } from '../api/json-in-turns.ts';
import { asWriter, outsideHistory } from './audit-actor.ts';
import { documentColumns } from './check-mark.ts';
import { digestAlgFromStored, storedDigestAlg } from './stored-schema.ts';
import { documentText, sameStored } from './packed-document.ts';
import { dropDerivedIndexes } from './trash-index.ts';
import { deriveDocument, packAhead, type DerivedDocument, type Envelope } from './document.ts';
import { documentOfRow, partsAhead } from './row-document.ts';
import { writeDerivedIndexes } from './derived-index.ts';
import { documentForAnswer, entryViews, type EntryRow, type EntryView } from './entry-view.ts';
import { HISTORY_COLUMNS } from './version-keeping.ts';
import { findAnyEntryRow, issueDateOf, requireEntryRow } from './entries.ts';
import { checkIfMatch, type EntryPreconditions } from './if-match.ts';
import { applyPatch } from './patch-apply.ts';
import { sigsCheckFor } from './signatures.ts';

/** A change as PATCH takes it: the contract's body, parsed (content_type defaults to application/json). */
export type PatchEntryInput = ParsedInput<Operations['patchEntry']>['body'];

/**
 * Changes an entry's document and labels. `data` replaces the envelope
 * (application/json), or is applied to it as an RFC 7396 merge patch or an
 * RFC 6902 JSON patch; the result goes through GOBL like a new entry (built when
 * partial, checked when complete). `sign` signs the (new or current) document.
 * A signed envelope is sealed: its document cannot change, and `sigs` are taken
 * only when each verifies (signatures.ts). With `If-Match`, a stale version is a 412.
 */
export async function patchEntry(ctx: Ctx, id: string, input: PatchEntryInput, preconditions?: EntryPreconditions): Promise<EntryView> {
  const { db } = ctx.service;
  const row = await requireEntryRow(ctx, id);
  // A stale version is refused before GOBL does any work; the write checks it again in its transaction.
  checkIfMatch(id, row.version, preconditions);
  const labelsOnly = input.data === undefined && !(input.sign && row.signed !== 1);
  let doc: DerivedDocument;
  if (!labelsOnly) {
    if (row.signed === 1) throw conflict(`entry ${id} is signed; its document can no longer change`);
    const current = (await parseStoredJson(documentText(row.data, row.id))) as Envelope;
    const changed = input.data !== undefined ? applyPatch(current, input.content_type, input.data) : current;
    const admitted = await admitDocument(id, changed, {
      allowInvalid: input.allow_invalid, sign: input.sign, keys: ctx.service.keys, checkSigs: sigsCheckFor(ctx),
    });
    doc = deriveDocument(admitted.envelope, admitted.digest, admitted.faults, admitted.checked, admitted.ahead);
    await packAhead(doc, db.dialect, id);
  } else {
    // Only labels change: the document, and so what GOBL found in it, stays, read from the row as it is.
    doc = documentOfRow(row, await partsAhead(row, { tags: input.tags }));
  }
  const state = input.state ?? (doc.signed && row.signed !== 1 && row.state === 'draft' ? 'completed' : undefined);
  const updated = await writeEntryChange(ctx, row, doc, { folder: input.folder, tags: input.tags, state }, preconditions);
  // A new document goes into the answer as it is at hand; the row's as any view of it does (parsed in turns when not written out as JSON).
  const documents = labelsOnly ? undefined : new Map([[updated.id, documentForAnswer(doc, ctx.writesJson)]]);
  return (await entryViews(db, [updated], ctx, undefined, documents))[0];
}

/**
 * Writes a re-derived document and new labels over an entry in one transaction,
 * with its mention and search rows. Refuses if the entry changed since `row` was
 * read (optimistic check), so two writers never silently overwrite each other; with
 * `preconditions`, a version `If-Match` no longer accepts is a 412 first.
 */
export function writeEntryChange(
  ctx: Ctx,
  row: EntryRow,
  doc: DerivedDocument,
  labels: { folder?: string; tags?: string[]; state?: string; trashed?: string | null; key?: string | null },
  preconditions?: EntryPreconditions,
): Promise<EntryRow> {
  const { db } = ctx.service;
  const tags = labels.tags ? [...new Set(labels.tags)] : (JSON.parse(row.tags) as string[]);
  const folder = labels.folder ?? row.folder;
  // The caller at hand is who history and the audit log name for this write (kept as its transaction ends).
  return asWriter(db, ctx.caller, () => db.tx(async () => {
    // In the trash or not: the trash itself (and sync) write here too; callers that must not touch a trashed entry read it live.
    const fresh = await findAnyEntryRow(ctx, row.id, 'for-update');
    if (!fresh) throw notFound(`entry ${row.id}`);
    // Another request may have changed it since it was read: If-Match speaks for the version it is at now.
    checkIfMatch(row.id, fresh.version, preconditions);
    if (fresh.version !== row.version) throw conflict(`entry ${row.id} changed while this change was prepared; retry`);
    const { data, faults, checked: made, doc_schema, snippet } = documentColumns(doc, row.id, db.dialect);
    // A document and faults that stay keep their mark, whatever carried them here; new ones are marked only when checked.
    const sameData = sameStored(data, fresh.data);
    const checked = made ?? (sameData && faults === fresh.faults ? fresh.checked : null);
    const values = {
      key: labels.key !== undefined ? labels.key : fresh.key,
      folder,
      state: labels.state ?? row.state,
      tags: JSON.stringify(tags),
      invalid: doc.faults.length > 0 ? 1 : 0,
      signed: doc.signed ? 1 : 0,
      draft: doc.signed ? 0 : 1,
      doc_schema,
      doc_uuid: doc.docUuid,
      issue_date: issueDateOf(doc),
      digest_alg: storedDigestAlg(doc.digest.alg),
      digest_val: doc.digest.val,
      snippet,
      faults,
      data,
      checked,
      version: row.version + 1,
      updated_at: nowIso(),
      trashed_at: labels.trashed !== undefined ? labels.trashed : fresh.trashed_at,
    };
    // Only what changed is set: an index whose columns are not set is not touched (a state change rewrites no sort index).
    const changed = Object.fromEntries(Object.entries(values).filter(([column, value]) => (column === 'data' ? !sameData : fresh[column as keyof EntryRow] !== value)));
    // Written-out SQL (the column names are this function's own): no query built and compiled per write.
    const columns = Object.keys(changed);
    const update = () =>
      db.sqlRun(`UPDATE entries SET ${columns.map((c) => `${c} = ?`).join(', ')} WHERE company_id = ? AND id = ?`, [...Object.values(changed), row.company_id, row.id]);
    // A write history has nothing to say of (a signature, a mark) says so, and is kept without looking history up.
    await (columns.some((column) => HISTORY_COLUMNS.has(column)) ? update() : outsideHistory(db, update));
    // Its derived rows are in place, built from the same document, snippet and tags as far as those did not change.
    const kept = fresh.trashed_at === null
      ? { document: digestAlgFromStored(fresh.digest_alg) === digestAlgFromStored(values.digest_alg) && fresh.digest_val === values.digest_val, snippet: fresh.snippet === values.snippet, tags: fresh.tags === values.tags }
      : undefined;
    const derivedOf = { seq: row.seq, id: row.id, company_id: row.company_id, created_at: row.created_at, folder, tags, kept };
    // An entry in the trash is found by nothing (search, related, numbers): its derived rows go, and come back with it.
    if (values.trashed_at === null) await writeDerivedIndexes(db, derivedOf, doc);
    else await dropDerivedIndexes(db, derivedOf);
    return { ...fresh, ...values };
  }, { origin: db.origin ?? LOCAL }));
}
