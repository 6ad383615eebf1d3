import { ApiError, validationError } from '../../api/errors.ts';
import type { Ctx } from '../../api/handler.ts';
import { entryRecord, type SyncRecordOf } from '../../api/contract/sync.ts';
import { deriveCheckedDocument, storedDocument, toEnvelope, type DerivedDocument, type Envelope } from '../../silo/document.ts';
import { deleteEntry } from '../../silo/entry-delete.ts';
import { commitEntry, findAnyEntryRow, prepareEntry, type PreparedEntry } from '../../silo/entries.ts';
import { isLargeDocument } from '../../gobl/engine-thread/index.ts';
import type { EntryRow } from '../../silo/entry-view.ts';
import { writeEntryChange } from '../../silo/patch.ts';
import { sameSignatures, sigsCheckFor } from '../../silo/signatures.ts';
import { clashingHolder } from '../key-clash.ts';
import { uuidRef, type RecordKind } from './kind.ts';
import { documentText, sameStored, type StoredDocument } from '../../silo/packed-document.ts';
import { JsonText } from '../../api/json-text.ts';
import { parseStoredJson } from '../../api/json-in-turns.ts';

type EntryRecord = SyncRecordOf['entry'];

// The documents read out of a row here, by identity, as known-digest.ts keeps digests: handed back
// unchanged onto the same stored bytes (a key renamed, a copy sent to the trash), one is written as
// stored rather than checked by GOBL again, which for a large one inside a transaction held the
// database for the engine's half second. A caller must not change a document it read.
const readFromRow = new WeakMap<object, StoredDocument>();

/** `row`'s stored document as derived from it, when `data` is that document as read here and not a new one. */
function unchangedDocument(row: EntryRow, data: Record<string, unknown>): DerivedDocument | undefined {
  const stored = readFromRow.get(data);
  return stored !== undefined && sameStored(stored, row.data) ? storedDocument(row, data as Envelope) : undefined;
}

export const entryKind: RecordKind<EntryRecord, string> = {
  kind: 'entry',
  schema: entryRecord,
  refOf: uuidRef,
  async read(ctx, id, opts) {
    const row = await findAnyEntryRow(ctx, id);
    if (!row) return undefined;
    return opts.documentAsText ? entryRecordOf(row, true) : entryRecordInTurns(row);
  },
  // In the trash or not is part of the state (when it went there is not: no timestamps).
  content: (r) => ({ key: r.key ?? null, folder: r.folder, state: r.state, tags: r.tags, data: r.data, ...(r.trashed_at ? { trashed: true } : {}) }),
  // A document GOBL works on off the event loop is checked before the write's transaction; a small one in it, at once.
  async prepare(ctx, id, record, mayApply) {
    return isLargeDocument(record.data) && (await mayApply()) ? entryAhead(ctx, id, record) : undefined;
  },
  async apply(ctx, id, record, ahead) {
    const row = await findAnyEntryRow(ctx, id);
    const prepared = ahead as PreparedEntry | undefined;
    if (record === null) {
      // Another instance deleted it: there, entries are deleted only by a purge of the trash, so it
      // goes for good here too, in the trash here or not. Work done on it here meanwhile is a
      // conflict, and its losing side is kept (conflicts.ts).
      if (row) await deleteEntry(ctx, row);
      return;
    }
    if (record.id !== id) throw validationError('record id must equal the id in the path', { '$.record.id': `must equal ${id}` });
    await refuseKeyClash(ctx, id, record.key);
    await refuseUnverifiedSigs(ctx, id, row, record, prepared);
    const labels = { folder: record.folder, tags: record.tags, state: record.state };
    const trashed = record.trashed_at ? new Date(record.trashed_at).toISOString() : null;
    if (!row) {
      const entry = prepared ?? (await prepareEntry(id, syncedInput(record), ctx.service.db.dialect));
      const { row: created } = await commitEntry(ctx, { ...entry, createdAt: new Date(record.created_at).toISOString() });
      // Pulled while in the trash there: it waits in the trash here too.
      if (trashed) await writeEntryChange(ctx, { ...created, created_at: new Date(record.created_at).toISOString() }, entry.doc, { trashed });
      return;
    }
    const doc = prepared?.doc ?? unchangedDocument(row, record.data) ?? (await deriveCheckedDocument(toEnvelope(id, record.data).envelope));
    await writeEntryChange(ctx, row, doc, { ...labels, trashed, key: record.key ?? null });
  },
};

/**
 * The write of `record` as entry `id`, prepared for entryKind.apply ahead of its transaction when
 * GOBL works on its document off the event loop (half a second for 13,000 lines, during which the
 * transaction would hold the database); undefined for a small one, checked in the write.
 */
export async function entryAhead(ctx: Ctx, id: string, record: EntryRecord): Promise<PreparedEntry | undefined> {
  return isLargeDocument(record.data) ? prepareEntry(id, syncedInput(record), ctx.service.db.dialect) : undefined;
}

/** A synced entry as creating it here takes it: the other instance accepted it, so a document it stored flagged invalid stays flagged here. */
function syncedInput(record: EntryRecord) {
  return { data: record.data, key: record.key, folder: record.folder, tags: record.tags, state: record.state, allow_invalid: true };
}

/**
 * entryRecordOf, its document parsed a piece at a time when large: a push or pull reads it to
 * compare with what arrives, in its transaction, and a conflict's copy is made of it.
 */
export async function entryRecordInTurns(row: EntryRow): Promise<EntryRecord> {
  const record = entryRecordOf(row, true);
  const data = (await parseStoredJson((record.data as unknown as JsonText).text)) as Record<string, unknown>;
  readFromRow.set(data, row.data);
  return { ...record, data };
}

/** `asText`: the document as a JsonText, for an answer writeJson writes (typed as the object it stands for). */
export function entryRecordOf(row: EntryRow, asText = false): EntryRecord {
  const text = documentText(row.data, row.id);
  const data = (asText ? new JsonText(text) : JSON.parse(text)) as Record<string, unknown>;
  if (!asText) readFromRow.set(data, row.data);
  return {
    id: row.id,
    ...(row.key !== null ? { key: row.key } : {}),
    folder: row.folder,
    state: row.state,
    tags: JSON.parse(row.tags) as string[],
    data,
    created_at: row.created_at,
    ...(row.trashed_at ? { trashed_at: row.trashed_at } : {}),
  };
}

/**
 * A key names one entry per company; a synced entry that would take another's key
 * is refused, not merged. A conflict, not a fault of the record: the pushing side
 * waits and retries, and decides (rename or merge) when it pulls the holder
 * (key-clash.ts).
 */
async function refuseKeyClash(ctx: Ctx, id: string, key: string | undefined): Promise<void> {
  const holder = await clashingHolder(ctx, id, key);
  if (holder) {
    throw new ApiError('conflict', `key ${JSON.stringify(key)} is used by another entry here (${holder}): a key clash, decided where it is pulled`, {
      '$.record.key': `used by entry ${holder}`,
    });
  }
}

/**
 * A synced document's signatures verify here too, against the keys this company
 * trusts (the issuers paired through sync, this instance's own, trusted JWKS): no
 * other instance can seal a document with a signature nobody checked. Signatures
 * already stored on the entry, over the same document, were checked when they came.
 */
async function refuseUnverifiedSigs(ctx: Ctx, id: string, row: EntryRow | undefined, record: EntryRecord, prepared: PreparedEntry | undefined): Promise<void> {
  // Unsigned, there is nothing to verify, whatever the stored one holds: neither is read (a large one: 40 ms each).
  const { sigs } = record.data;
  if (sigs === undefined || sigs === null || (Array.isArray(sigs) && sigs.length === 0)) return;
  const next = prepared?.doc.envelope ?? toEnvelope(id, record.data).envelope;
  const stored = row ? ((await parseStoredJson(documentText(row.data, row.id))) as Envelope) : undefined;
  if (!sameSignatures(stored, next)) await sigsCheckFor(ctx, '$.record.data')(next);
}
