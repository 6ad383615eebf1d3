import { canonicalSha256, canonicalSha256Parts, defaultFolderOf, isEnvelope, withKnownDigest, type Digest } from '../gobl/index.ts';
import type { Dialect } from '../db/engine.ts';
import { conflict, notFound } from '../api/errors.ts';
import { JsonText } from '../api/json-text.ts';
import { canonicalSha256PartsInTurns } from '../gobl/canonical-in-turns.ts';
import { isLargeDocument } from '../gobl/engine-thread/index.ts';
import type { Operations } from '../api/contract/index.ts';
import type { Ctx } from '../api/handler.ts';
import type { ParsedInput } from '../api/operation.ts';
import { nowIso } from '../clock.ts';
import { LOCAL } from '../db/write-scopes.ts';
import { admitDocument } from './admit.ts';
import { asWriter } from './audit-actor.ts';
import { correctionOf } from './correction.ts';
import { deriveCheckedDocument, deriveDocument, packAhead, refuseInvalid, toEnvelope, type DerivedDocument } from './document.ts';
import { writeDerivedIndexes } from './derived-index.ts';
import { documentForAnswer, entryView, entryViews, type EntryRow, type EntryView } from './entry-view.ts';
import { optionsAt, underData } from './faults-error.ts';
import { checkIfMatch, type EntryPreconditions } from './if-match.ts';
import { documentColumns } from './check-mark.ts';
import { documentText } from './packed-document.ts';
import { storedDigestAlg } from './stored-schema.ts';
import { sigsCheckFor } from './signatures.ts';
import { sortKeysOf } from './sort-keys.ts';

/**
 * A new entry as POST and PUT take it: the contract's body, parsed (its members are
 * described there: a document or, with `previous_id` and `correct`, a correction).
 */
export type CreateEntryInput = ParsedInput<Operations['createEntry']>['body'];

/**
 * An entry of the caller's company that is not in the trash: every read and write of
 * an entry goes through here. A change synced from another instance may still reach
 * one in the trash (a file or meta it had before it went there): its state converges.
 */
export async function findEntryRow(ctx: Ctx, id: string, lock?: RowLock): Promise<EntryRow | undefined> {
  const row = await findAnyEntryRow(ctx, id, lock);
  if (!row) return undefined;
  const origin = ctx.service.db.origin;
  return row.trashed_at === null || (origin !== undefined && origin !== LOCAL) ? row : undefined;
}

/**
 * `lock`: read for a read-modify-write in a transaction. On PostgreSQL, where requests
 * write at once, the row then stays locked until the transaction ends, so two writers
 * of one entry take turns and the second reads what the first wrote. SQLite has one
 * writer at a time already.
 */
export type RowLock = 'for-update';

// The commonest read there is (a job's steps make eight of it): written out, not built per call.
const ENTRY_ROW = 'SELECT * FROM entries WHERE company_id = ? AND id = ?';
const ENTRY_ROW_LOCKED_PG = `${ENTRY_ROW} FOR UPDATE`;

/** An entry of the caller's company, in the trash or not (for the trash, history and sync). */
export function findAnyEntryRow(ctx: Ctx, id: string, lock?: RowLock): Promise<EntryRow | undefined> {
  const { db } = ctx.service;
  return db.sqlFirst<EntryRow>(lock === 'for-update' && db.dialect === 'postgres' ? ENTRY_ROW_LOCKED_PG : ENTRY_ROW, [ctx.caller.companyKey, id]);
}

export async function requireEntryRow(ctx: Ctx, id: string, lock?: RowLock): Promise<EntryRow> {
  const row = await findEntryRow(ctx, id, lock);
  if (!row) throw notFound(`entry ${id}`);
  return row;
}

export async function getEntry(ctx: Ctx, id: string): Promise<EntryView> {
  return entryWithData(ctx, await requireEntryRow(ctx, id));
}

/** One entry's view with its document: written out as JSON, the stored text goes into the answer as it is (a 4.4 MB document parsed and written again held the loop 50 ms). */
async function entryWithData(ctx: Ctx, row: EntryRow): Promise<EntryView> {
  return (await entryViews(ctx.service.db, [row], ctx))[0];
}

export async function getEntryByKey(ctx: Ctx, key: string): Promise<EntryView> {
  const { db } = ctx.service;
  const row = await db.first(
    db.q.selectFrom('entries').selectAll().where('company_id', '=', ctx.caller.companyKey).where('key', '=', key).where('trashed_at', 'is', null),
  );
  if (!row) throw notFound(`entry with key ${JSON.stringify(key)}`);
  return entryWithData(ctx, row);
}

/** An entry ready to be written: everything derived, nothing stored yet. */
export interface PreparedEntry {
  id: string;
  doc: DerivedDocument;
  input: CreateEntryInput;
  requestHash: string;
  /** a POST: its key names it, so the same request again under the key is a replay (README, one replay rule) */
  replayByKey?: boolean;
  /** when it was first stored, if elsewhere (a synced entry keeps the moment another instance stored it) */
  createdAt?: string;
}

/**
 * What makes a replay a replay: the request as sent (an envelope's head.dig aside,
 * which is derived), not what was built from it, since a build gives a document
 * without a uuid a new one every time.
 */
function requestHashOf(input: CreateEntryInput): string {
  return shortHash(canonicalSha256(hashedRequest(input), 'buffer'));
}

function hashedRequest(input: CreateEntryInput): Record<string, unknown> {
  const data = input.data && !Array.isArray(input.data) && isEnvelope(input.data) && typeof input.data.head === 'object' && input.data.head !== null
    ? { ...input.data, head: { ...(input.data.head as Record<string, unknown>), dig: undefined } }
    : input.data;
  const { allow_invalid: _ignored, ...rest } = input;
  return { ...rest, data };
}

// 64 bits as base64url (11 characters): a request is only ever told apart from the one stored under its own id
// (a clash, one in 2^64, would take a changed request for a replay of the company's own entry). 53 bytes of
// every entry less than hex; 22 characters (128 bits) until issue 13.
const shortHash = (sha256: Buffer): string => sha256.subarray(0, 8).toString('base64url');

/**
 * The request hash, and on the way the digest of the document the silo digests for it (toEnvelope:
 * an envelope's `doc`, or the bare document), which admitting it needs twice more (as given, and
 * as GOBL rebuilds it). Undefined for a request that cannot be canonicalised: its hash is left
 * for after the admission, which refuses such a document first, as it always did.
 */
async function hashedWithDocDigest(input: CreateEntryInput): Promise<{ requestHash: string; doc?: object; digest?: Digest } | undefined> {
  const data = input.data as unknown;
  const doc = isEnvelope(data) ? data.doc : data;
  try {
    if (typeof doc !== 'object' || doc === null) return { requestHash: requestHashOf(input) };
    // A document large enough for the engine thread is hashed a piece at a time (25 ms for 13,000 lines in one call).
    const { whole, part } = isLargeDocument(doc)
      ? await canonicalSha256PartsInTurns(hashedRequest(input), doc)
      : canonicalSha256Parts(hashedRequest(input), doc);
    return { requestHash: shortHash(whole), doc, digest: part === undefined ? undefined : { alg: 'sha256', val: part } };
  } catch {
    return undefined;
  }
}

/** Whether a row's request hash is this request's: rows stored before keep 22 base64url characters, or all 64 hex digits. */
export function sameRequest(stored: string, requestHash: string): boolean {
  if (stored === requestHash) return true;
  const bytes = stored.length === 64 ? Buffer.from(stored, 'hex') : stored.length === 22 ? Buffer.from(stored, 'base64url') : undefined;
  return bytes !== undefined && bytes.subarray(0, 8).toString('base64url') === requestHash;
}

/**
 * An entry stored as given, as another instance or a conflict copy has it: checked
 * by GOBL, never rebuilt. Throws 422 for a document with faults unless `allow_invalid`.
 */
export async function prepareEntry(id: string | undefined, input: CreateEntryInput, dialect?: Dialect): Promise<PreparedEntry> {
  // The request and its document hashed together (a large one a piece at a time), the document's digest then known.
  const hashed = await hashedWithDocDigest(input);
  const prepare = async (): Promise<PreparedEntry> => {
    const prepared = toEnvelope(id, input.data as Record<string, unknown>);
    const doc = await deriveCheckedDocument(prepared.envelope, prepared.digest);
    if (doc.faults.length > 0 && !input.allow_invalid) refuseInvalid(doc.faults);
    // Given the engine, a large document is packed off the event loop here, not in the write.
    if (dialect) await packAhead(doc, dialect, prepared.id);
    return { id: prepared.id, doc, input, requestHash: hashed?.requestHash ?? requestHashOf(input) };
  };
  return hashed?.doc && hashed.digest ? withKnownDigest(hashed.doc, hashed.digest, prepare) : prepare();
}

/**
 * The CPU part of creating an entry from a client's request, done outside any
 * transaction: the correction of `previous_id` when asked, then GOBL's build (partial
 * data) or check (a complete or signed document), signing, and everything derived.
 * Throws 422 with the faults of a document GOBL refuses, unless `allow_invalid`.
 */
export async function prepareNewEntry(ctx: Ctx, id: string | undefined, input: CreateEntryInput): Promise<PreparedEntry> {
  const now = new Date();
  const data = input.previous_id !== undefined
    ? await correctionOf(ctx, input.previous_id, input.correct ?? {}, { data: input.data, content_type: input.content_type }, now)
    : (input.data as Record<string, unknown>);
  // A correction admits a document of its own; anything else admits the request's, whose digest
  // the request hash works out on the way. Neither the request nor its document is changed.
  const hashed = input.previous_id === undefined ? await hashedWithDocDigest(input) : undefined;
  const admit = () => admitDocument(id, data, {
    allowInvalid: input.allow_invalid,
    sign: input.sign,
    keys: ctx.service.keys,
    now,
    requestPath: input.previous_id !== undefined ? optionsAt('correct') : underData,
    checkSigs: sigsCheckFor(ctx),
  });
  const admitted = hashed?.doc && hashed.digest ? await withKnownDigest(hashed.doc, hashed.digest, admit) : await admit();
  const doc = deriveDocument(admitted.envelope, admitted.digest, admitted.faults, admitted.checked, admitted.ahead);
  await packAhead(doc, ctx.service.db.dialect, admitted.id);
  return { id: admitted.id, doc, input, requestHash: hashed?.requestHash ?? requestHashOf(input) };
}

/**
 * Writes a prepared entry, or finds the one already there: the same id in the
 * company with the same request is an idempotent replay; another body under the id,
 * or a key already used in the company, is a 409. Call inside a transaction.
 */
export async function commitEntry(ctx: Ctx, p: PreparedEntry): Promise<{ row: EntryRow; created: boolean }> {
  const { db } = ctx.service;
  // Ids are the company's own (issue 12): another company holding the same id is neither a conflict nor seen.
  const existing = await findAnyEntryRow(ctx, p.id);
  if (existing) {
    if (existing.trashed_at !== null) throw conflict(`entry ${p.id} is in the trash; restore it instead`);
    if (sameRequest(existing.request_hash, p.requestHash)) return { row: existing, created: false };
    throw conflict(`entry ${p.id} already exists with a different body`);
  }
  if (p.input.key !== undefined) {
    const holder = await db.first(
      db.q.selectFrom('entries').selectAll().where('company_id', '=', ctx.caller.companyKey).where('key', '=', p.input.key),
    );
    // The same PUT at once, committed between the look-up by id and this one (READ COMMITTED on PostgreSQL): a replay.
    if (holder && holder.id === p.id && holder.trashed_at === null && holder.request_hash === p.requestHash) return { row: holder, created: false };
    // A POST made again with its key and the same body answers the entry the first one made, as the same PUT again does.
    if (holder && p.replayByKey && holder.request_hash === p.requestHash && (await findEntryRow(ctx, holder.id))) return { row: holder, created: false };
    if (holder) throw conflict(`key ${JSON.stringify(p.input.key)} is already used by entry ${holder.id}`);
  }
  // The caller at hand is who history and the audit log name for this write.
  return asWriter(db, ctx.caller, async () => ({ row: await insertEntry(ctx, p), created: true }));
}

/**
 * Creates one entry from a client's request (idempotent under its id); see
 * prepareNewEntry and commitEntry. With `If-Match` (PUT), the entry must exist at
 * that version: a stale one is a 412 before anything is built, and otherwise the
 * PUT behaves as without it (a replay answers the entry, another body is a 409).
 */
export async function createEntry(ctx: Ctx, id: string | undefined, input: CreateEntryInput, preconditions?: EntryPreconditions): Promise<EntryView> {
  const { db } = ctx.service;
  const versionOf = async () => (id === undefined ? undefined : (await findEntryRow(ctx, id))?.version);
  checkIfMatch(id ?? '(new)', await versionOf(), preconditions);
  // A POST replayed under its key: answered before GOBL builds anything again.
  const replay = id === undefined && input.key !== undefined ? await replayOfKey(ctx, input) : undefined;
  if (replay) return replay;
  const prepared = { ...(await prepareNewEntry(ctx, id, input)), replayByKey: id === undefined };
  const { row, created } = await db.tx(async () => {
    checkIfMatch(id ?? '(new)', await versionOf(), preconditions);
    return commitEntry(ctx, prepared);
  }, { origin: LOCAL });
  // A new entry has no attachments or meta yet, and its document is at hand: as text when the
  // answer is written out as JSON and the text is known (a large document's, from the engine thread).
  return created ? entryView(row, [], [], undefined, documentForAnswer(prepared.doc, ctx.writesJson)) : (await entryViews(ctx.service.db, [row], ctx))[0];
}

/** The entry a POST with this key and this very request made, if one did (and it is not in the trash). */
async function replayOfKey(ctx: Ctx, input: CreateEntryInput): Promise<EntryView | undefined> {
  const { db } = ctx.service;
  const holder = await db.first(
    db.q.selectFrom('entries').select(['id', 'request_hash']).where('company_id', '=', ctx.caller.companyKey).where('key', '=', input.key!),
  );
  if (!holder || holder.request_hash !== requestHashOf(input)) return undefined;
  const row = await findEntryRow(ctx, holder.id);
  return row ? (await entryViews(db, [row], ctx))[0] : undefined;
}

export function issueDateOf(doc: DerivedDocument): string | null {
  const date = doc.snippet.issue_date;
  return date && /^\d{4}-\d{2}-\d{2}$/.test(date) ? date : null;
}

/**
 * Writes a new entry's row whole, sort columns and first-stored moment included, so
 * that it is written once (on PostgreSQL an UPDATE after it is a second row version and
 * a second entry in every index), then its derived rows.
 */
async function insertEntry(ctx: Ctx, { id, doc, input, requestHash, createdAt }: PreparedEntry): Promise<EntryRow> {
  const { db } = ctx.service;
  const at = nowIso();
  const created = createdAt ?? at;
  const tags = [...new Set(input.tags ?? [])];
  const values = {
    id,
    company_id: ctx.caller.companyKey,
    key: input.key ?? null,
    folder: input.folder ?? defaultFolderOf(doc.docSchema),
    state: input.state ?? (doc.signed ? 'completed' : 'draft'),
    context: '',
    draft: doc.signed ? 0 : 1,
    invalid: doc.faults.length > 0 ? 1 : 0,
    signed: doc.signed ? 1 : 0,
    doc_uuid: doc.docUuid,
    issue_date: issueDateOf(doc),
    digest_alg: storedDigestAlg(doc.digest.alg),
    digest_val: doc.digest.val,
    tags: JSON.stringify(tags),
    ...documentColumns(doc, id, db.dialect),
    request_hash: requestHash,
    version: 1,
    created_at: created,
    updated_at: at,
  };
  const inserted = (await db.first(db.q.insertInto('entries').values({ ...values, ...sortKeysOf(doc.snippet) }).returning('seq')))!;
  const derived = { seq: inserted.seq, id, company_id: values.company_id, created_at: created, folder: values.folder, tags, fresh: true, sortKeysWritten: true };
  await writeDerivedIndexes(db, derived, doc);
  return { ...values, seq: inserted.seq, step_faults: '[]', trashed_at: null };
}
