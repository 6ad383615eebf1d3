import type { ApiClient } from '../../api/client.ts';
import type { ImportResult } from '../../api/types.ts';
import { mimeForFile } from '../attachments/kind.ts';
import { attachmentIdFor, fileBytes, MAX_ATTACHMENT_BYTES, sha256Hex, toBase64 } from './read-file.ts';

type Json = Record<string, unknown>;

/** The minimal document a non-JSON file becomes: a draft that holds the file until a workflow reads it. */
export const SCAN_SCHEMA = 'https://silodesk.app/draft-0/scan';

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
  /** stored, but the same document (same digest) was already there */
  duplicates: Array<{ id?: string; of: string }>;
  errors: Array<{ message: string; key?: string; fields?: Record<string, string>; data?: Json }>;
}

interface Item {
  file: number;
  body: { data: Json; id?: string; state?: string };
  /** a non-JSON file to attach once its draft exists */
  attach?: File;
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
    duplicates: [],
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
 * result, and a failure never stops the others.
 */
export async function importFiles(api: ApiClient, files: File[], cb: ImportCallbacks): Promise<void> {
  const items: Item[] = [];
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

  const total = items.length;
  let done = 0;
  for (const batch of batches(items)) {
    cb.signal.throwIfAborted();
    cb.progress(done, total, `Storing ${total === 1 ? 'the document' : `documents ${done + 1}–${done + batch.length} of ${total}`}…`);
    let results: ImportResult[];
    try {
      results = (await api.importEntries({ body: { entries: batch.map((i) => i.body) } })).results;
    } catch (err) {
      // The whole call failed (service unreachable, too large): every item in it failed alike.
      const e = err as Error & { key?: string };
      results = batch.map((_, index) => ({ index, status: 'error' as const, error: { key: e.key ?? 'internal', code: e.key ?? 'internal', message: e.message } }));
    }
    for (const result of results) {
      const item = batch[result.index];
      if (!item) continue;
      // Attaching again to a draft that exists is a no-op, and completes an import that stopped halfway.
      if (result.status !== 'error' && item.attach) {
        try {
          cb.progress(done, total, `Attaching ${item.attach.name}…`);
          await attach(api, result.id!, item.attach);
        } catch (err) {
          record(cb, item, { index: result.index, status: 'error', id: result.id, error: { key: 'internal', code: 'internal', message: `the draft was made, but the file could not be attached: ${(err as Error).message}` } });
          continue;
        }
      }
      record(cb, item, result);
    }
    done += batch.length;
    cb.progress(done, total, 'Storing documents…');
  }
  for (let index = 0; index < files.length; index++) cb.update(index, (f) => ({ ...f, phase: 'done' }));
  cb.progress(total, total, 'Done');
}

/** Imports a document again as a new entry (after its envelope's id turned out to be taken). */
export async function importAsCopy(api: ApiClient, data: Json): Promise<ImportResult> {
  const doc = (data.doc as Json | undefined) ?? data;
  const answer = await api.importEntries({ body: { entries: [{ data: doc }] } });
  return answer.results[0];
}

function record(cb: ImportCallbacks, item: Item, result: ImportResult) {
  cb.update(item.file, (f) => {
    switch (result.status) {
      case 'created':
        return result.duplicate_of
          ? { ...f, duplicates: [...f.duplicates, { id: result.id, of: result.duplicate_of }] }
          : { ...f, created: [...f.created, result.id!] };
      case 'exists':
        return { ...f, existing: [...f.existing, result.id!] };
      default:
        return {
          ...f,
          errors: [
            ...f.errors,
            {
              message: result.error?.message ?? 'the document was not stored',
              key: result.error?.key,
              fields: result.error?.fields,
              data: result.error?.key === 'conflict' ? item.body.data : undefined,
            },
          ],
        };
    }
  });
}

function* batches(items: Item[]): Generator<Item[]> {
  let batch: Item[] = [];
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

async function jsonItems(file: File, index: number): Promise<Item[]> {
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
 * making a second one.
 */
async function draftItem(file: File, index: number): Promise<Item> {
  if (file.size > MAX_ATTACHMENT_BYTES) throw new Error('this file is larger than the 50 MiB an attachment may be');
  const bytes = await fileBytes(file);
  const hash = await sha256Hex(bytes);
  const data: Json = { $schema: SCAN_SCHEMA, name: file.name, mime: mimeForFile(file), size: file.size, sha256: hash };
  return { file: index, body: { data, id: await uuidFrom(`silodesk-scan/${hash}/${file.name}`), state: 'draft' }, attach: file };
}

async function attach(api: ApiClient, entryId: string, file: File): Promise<void> {
  const bytes = await fileBytes(file);
  await api.putAttachment({
    params: { entry_id: entryId, id: attachmentIdFor(file.name) },
    body: { name: file.name, mime: mimeForFile(file), desc: 'Imported file', hash: await sha256Hex(bytes), data: toBase64(bytes) },
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
