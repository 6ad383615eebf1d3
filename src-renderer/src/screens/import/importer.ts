import type { ApiClient } from '../../api/client.ts';
import type { ImportEntry, ImportResult } from '../../api/types.ts';
import { mimeForFile } from '../attachments/kind.ts';
import { attachmentIdFor, displayNameOf, fileBytes, MAX_ATTACHMENT_BYTES, sha256Hex, toBase64 } from './read-file.ts';

type Json = Record<string, unknown>;

/** The minimal document a non-JSON file becomes: a draft that holds the file until a workflow reads it. */
export const SCAN_SCHEMA = 'https://silodesk.app/draft-0/scan';

/** A document read from a file, ready to send (and, for a PDF or image, the file to attach to its draft). */
export interface PendingItem {
  file: number;
  /** an import item (the contract's), always with a document to store */
  body: ImportEntry & { data: Json };
  attach?: File;
}

/** One picked or dropped file and what became of it. */
export interface ImportedFile {
  key: number;
  name: string;
  size: number;
  kind: 'json' | 'file';
  phase: 'waiting' | 'working' | 'done';
  /** documents found in the file (a JSON file may hold an array of them) */
  documents: number;
  created: string[];
  existing: string[];
  /** stored though the company held it already, because the user asked for copies */
  copies: Array<{ id: string; of?: string }>;
  /** not stored: the company holds the same document (or the same file bytes) already */
  duplicates: Array<{ of: string; by: 'digest' | 'file'; item: PendingItem; skipped?: boolean }>;
  /** not stored: the envelope's id belongs to another document; it can go in as a new copy */
  clashes: Array<{ message: string; item: PendingItem }>;
  errors: Array<{ message: string; key?: string; fields?: Record<string, string>; retry?: { entryId: string; file: File } }>;
}

const BATCH_ITEMS = 500;
/** Well under the service's 50 MiB import cap, so a batch never fails for size. */
const BATCH_BYTES = 8 * 1024 * 1024;

export const isJsonFile = (file: File): boolean => file.type === 'application/json' || /\.json$/i.test(file.name);

export function newImportedFile(key: number, file: File): ImportedFile {
  return {
    key,
    name: file.name,
    size: file.size,
    kind: isJsonFile(file) ? 'json' : 'file',
    phase: 'waiting',
    documents: 0,
    created: [],
    existing: [],
    copies: [],
    duplicates: [],
    clashes: [],
    errors: [],
  };
}

export interface ImportCallbacks {
  update(index: number, change: (f: ImportedFile) => ImportedFile): void;
  progress(done: number, total: number, phase: string): void;
  signal: AbortSignal;
}

/**
 * Imports files: GOBL envelopes and documents (JSON, one or an array per file) go
 * to the service in batches through `importEntries`; any other file (PDF, image,
 * XML…) becomes a draft entry with the file attached. Every file gets its own
 * result, and a failure never stops the others. What the company holds already is
 * not stored again: it waits for one decision for all of them (decisions.ts).
 */
export async function importFiles(api: ApiClient, files: File[], cb: ImportCallbacks): Promise<void> {
  const items: PendingItem[] = [];
  for (let index = 0; index < files.length; index++) {
    cb.signal.throwIfAborted();
    const file = files[index];
    cb.progress(index, files.length, `Reading ${file.name}…`);
    cb.update(index, (f) => ({ ...f, phase: 'working' }));
    try {
      const found = isJsonFile(file) ? await jsonItems(file, index) : [await draftItem(file, index)];
      items.push(...found);
      cb.update(index, (f) => ({ ...f, documents: found.length }));
    } catch (err) {
      cb.update(index, (f) => ({ ...f, phase: 'done', errors: [{ message: (err as Error).message }] }));
    }
  }
  await sendItems(api, items, 'skip', cb, (item, outcome) => cb.update(item.file, (f) => recordOutcome(f, item, outcome)));
  for (let index = 0; index < files.length; index++) cb.update(index, (f) => ({ ...f, phase: 'done' }));
  cb.progress(items.length, items.length, 'Done');
}

/** What became of one item: the service's answer, after its file (if any) was attached. */
export type Outcome =
  | { status: 'created' | 'exists'; id: string; duplicate_of?: string }
  | { status: 'duplicate'; of: string; by: 'digest' | 'file' }
  | { status: 'clash'; message: string }
  | { status: 'error'; message: string; key?: string; fields?: Record<string, string>; retry?: { entryId: string; file: File } };

/**
 * Sends items in batches and attaches the files of the drafts made. A draft whose file
 * could not be attached is a failure (with a retry), never "added".
 */
export async function sendItems(
  api: ApiClient,
  items: PendingItem[],
  onDuplicate: 'skip' | 'store',
  cb: Pick<ImportCallbacks, 'progress' | 'signal'>,
  record: (item: PendingItem, outcome: Outcome) => void,
): Promise<void> {
  const total = items.length;
  let done = 0;
  for (const batch of batches(items)) {
    cb.signal.throwIfAborted();
    cb.progress(done, total, `Storing ${total === 1 ? 'the document' : `documents ${done + 1}–${done + batch.length} of ${total}`}…`);
    let results: ImportResult[];
    try {
      results = (await api.importEntries({ body: { entries: batch.map((i) => i.body), on_duplicate: onDuplicate } })).results;
    } catch (err) {
      // The whole call failed (service unreachable, too large): every item in it failed alike.
      const e = err as Error & { key?: string };
      results = batch.map((_, index) => ({ index, status: 'error' as const, error: { key: e.key ?? 'internal', code: e.key ?? 'internal', message: e.message } }));
    }
    for (const result of results) {
      const item = batch[result.index];
      if (item) record(item, await outcomeOf(api, item, result, (phase) => cb.progress(done, total, phase)));
    }
    done += batch.length;
    cb.progress(done, total, 'Storing documents…');
  }
}

async function outcomeOf(api: ApiClient, item: PendingItem, result: ImportResult, progress: (phase: string) => void): Promise<Outcome> {
  switch (result.status) {
    case 'duplicate':
      return { status: 'duplicate', of: result.duplicate_of!, by: result.duplicate_by ?? 'digest' };
    case 'error':
      if (result.error?.key === 'conflict') return { status: 'clash', message: result.error.message };
      return { status: 'error', message: result.error?.message ?? 'the document was not stored', key: result.error?.key, fields: result.error?.fields };
    default: {
      // Attaching again to a draft that exists is a no-op, and completes an import that stopped halfway.
      if (item.attach) {
        try {
          progress(`Attaching ${item.attach.name}…`);
          await attach(api, result.id!, item.attach);
        } catch (err) {
          return { status: 'error', message: `the draft was made, but the file could not be attached: ${(err as Error).message}`, key: 'internal', retry: { entryId: result.id!, file: item.attach } };
        }
      }
      return { status: result.status, id: result.id!, duplicate_of: result.duplicate_of };
    }
  }
}

/** A file's record with one more outcome of its documents. */
export function recordOutcome(f: ImportedFile, item: PendingItem, outcome: Outcome): ImportedFile {
  switch (outcome.status) {
    case 'created':
      return { ...f, created: [...f.created, outcome.id] };
    case 'exists':
      return { ...f, existing: [...f.existing, outcome.id] };
    case 'duplicate':
      return { ...f, duplicates: [...f.duplicates, { of: outcome.of, by: outcome.by, item }] };
    case 'clash':
      return { ...f, clashes: [...f.clashes, { message: outcome.message, item }] };
    default:
      return { ...f, errors: [...f.errors, { message: outcome.message, key: outcome.key, fields: outcome.fields, retry: outcome.retry }] };
  }
}

function* batches(items: PendingItem[]): Generator<PendingItem[]> {
  let batch: PendingItem[] = [];
  let bytes = 0;
  for (const item of items) {
    const size = JSON.stringify(item.body).length;
    if (batch.length > 0 && (batch.length >= BATCH_ITEMS || bytes + size > BATCH_BYTES)) {
      yield batch;
      batch = [];
      bytes = 0;
    }
    batch.push(item);
    bytes += size;
  }
  if (batch.length > 0) yield batch;
}

async function jsonItems(file: File, index: number): Promise<PendingItem[]> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await file.text());
  } catch {
    throw new Error('this file is not valid JSON');
  }
  const documents = Array.isArray(parsed) ? parsed : [parsed];
  if (documents.length === 0) throw new Error('this file holds an empty list');
  return documents.map((doc, n) => {
    if (typeof doc !== 'object' || doc === null || Array.isArray(doc) || typeof (doc as Json).$schema !== 'string') {
      throw new Error(`${documents.length > 1 ? `item ${n + 1} ` : ''}is not a GOBL envelope or document (it has no $schema)`);
    }
    return { file: index, body: { data: doc as Json } };
  });
}

/**
 * A draft for a non-JSON file. Its id is derived from the file's name and bytes,
 * so importing the same file again finds the draft already there instead of
 * making a second one; the same bytes under another name are the service's to
 * recognise (a duplicate by file).
 */
async function draftItem(file: File, index: number): Promise<PendingItem> {
  if (file.size > MAX_ATTACHMENT_BYTES) throw new Error('this file is larger than the 50 MiB an attachment may be');
  const bytes = await fileBytes(file);
  const hash = await sha256Hex(bytes);
  const data: Json = { $schema: SCAN_SCHEMA, name: file.name, mime: mimeForFile(file), size: file.size, sha256: hash };
  return { file: index, body: { data, id: await uuidFrom(`silodesk-scan/${hash}/${file.name}`), state: 'draft' }, attach: file };
}

/**
 * Attaches a file to its draft: the id is path-safe (made from the name), the name is
 * the file's own, shown and downloaded as the user knows it (`Scan 2025-03-14 10:30.pdf`).
 */
export async function attach(api: ApiClient, entryId: string, file: File): Promise<void> {
  const bytes = await fileBytes(file);
  await api.putAttachment({
    params: { entry_id: entryId, id: attachmentIdFor(file.name) },
    body: { name: displayNameOf(file.name), mime: mimeForFile(file), desc: 'Imported file', hash: await sha256Hex(bytes), data: toBase64(bytes) },
  });
}

/** A name-based UUID (RFC 9562 version 8 layout) from SHA-256 of `text`. */
async function uuidFrom(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
  digest[6] = (digest[6] & 0x0f) | 0x80;
  digest[8] = (digest[8] & 0x3f) | 0x80;
  const hex = Array.from(digest.subarray(0, 16), (b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}
