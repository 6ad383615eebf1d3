import { promisify } from 'node:util';
import { crc32, deflateRaw, deflateRawSync } from 'node:zlib';
import { inflateSync } from 'fflate';
import type { Dialect } from '../db/engine.ts';
import { DOCUMENT_DICTIONARY_1 } from './document-dictionary.ts';
import { DOCUMENT_DICTIONARY_2_TAIL } from './document-dictionary-2.ts';

/**
 * An entry's document as a row holds it (entries.data, entry_versions.data, jobs.envelope):
 * its JSON text, or packed. On SQLite a document is stored deflated against a dictionary
 * of GOBL's vocabulary (made from GOBL's schemas alone): 1,658 bytes of an average
 * envelope become about 500, which is most of an entry's row. Rows written before
 * migration 0022 keep their text, rows packed as format 1 keep it, and every form reads
 * the same. PostgreSQL keeps the text: it compresses long values itself (TOAST).
 */
export type StoredDocument = string | Uint8Array;

/**
 * A packed document is a format byte, the text's length in bytes (32-bit, big-endian:
 * what SQL reads to size an export without unpacking, packedTextBytes) and the text
 * deflated against the dictionary of that format. A new dictionary is a new format,
 * never a change to this one.
 *
 * Format 1 (document-dictionary.ts): GOBL's vocabulary. Format 2 adds the names of the
 * objects an invoice is made of in the order GOBL writes them (document-dictionary-2.ts),
 * and, last, the id of the entry the document belongs to: an envelope's head repeats it,
 * and deflate then stores it as one back-reference instead of 36 characters (together
 * 589 bytes of an average document become 503). So format 2 is read with its entry's id,
 * which every table that keeps a document keeps beside it (entries.id,
 * entry_versions.entry_id, jobs.silo_entry_id), and which never changes. Its header
 * carries two bytes of a CRC-32 of that id after the length: a document read as another
 * entry's is refused, not unpacked into a text with the other's id in its head.
 */
const FORMAT_1 = 0x01;
const FORMAT_2 = 0x02;
/** The format a document is packed in now. */
export const PACKED_FORMAT = FORMAT_2;
const HEADER_1 = 5;
const HEADER_2 = 7;
const DICTIONARY_1 = Buffer.from(DOCUMENT_DICTIONARY_1, 'utf8');
const DICTIONARY_2 = Buffer.from(DOCUMENT_DICTIONARY_1 + DOCUMENT_DICTIONARY_2_TAIL, 'utf8');
// Packing looks back 8 KiB, not 32: deflate then primes itself with the dictionary's last
// 8 KiB only, and sets up a quarter of the memory, which is most of what a call costs for a
// document this small (a job's write: about a fifth less, for 1% more bytes). Unpacking, with
// the whole dictionary and the full window, reads either, as deflate's distances are relative.
// Its output goes to 2 KiB chunks, not node's default 16 KiB: a document packs to about 500
// bytes, and a 16 KiB buffer was allocated outside node's pool for every one (in an import's
// slice, with the collections it brought on, 20 µs of every entry). Deflate's output does not
// depend on the room it is given: a longer one takes several chunks, joined, the same bytes.
const PACKING = { windowBits: 13, memLevel: 5, chunkSize: 2048 } as const;

// One buffer the entry's id is written into after the dictionary, for every call: zlib's
// synchronous calls take their copy of the dictionary before they return, and a new 12 KB
// buffer per document is an allocation outside node's pool.
const ID_ROOM = 64;
const withId = Buffer.alloc(DICTIONARY_2.length + ID_ROOM);
DICTIONARY_2.copy(withId);

/** The dictionary format 2 packs the document of entry `entryId` against. */
function dictionaryOf(entryId: string): Buffer {
  const id = Buffer.from(entryId, 'utf8');
  if (id.length > ID_ROOM) return Buffer.concat([DICTIONARY_2, id]);
  id.copy(withId, DICTIONARY_2.length);
  return withId.subarray(0, DICTIONARY_2.length + id.length);
}

/** The two bytes of format 2's header that name the entry a document was packed for. */
const ownerCheck = (entryId: string): number => crc32(entryId) & 0xffff;

/** The document text of entry `entryId` in the form a row of `dialect` stores it. */
export function packDocument(dialect: Dialect, text: string, entryId: string): StoredDocument {
  if (dialect !== 'sqlite') return text;
  const bytes = Buffer.from(text, 'utf8');
  return framed(bytes.length, deflateRawSync(bytes, { ...PACKING, dictionary: dictionaryOf(entryId) }), entryId, text);
}

const deflateRawOnPool = promisify(deflateRaw);

/**
 * packDocument, deflated on libuv's threads: the same bytes, without holding the event loop
 * (a 4.4 MB document took 15–20 ms of it). For a large text, before its write's transaction.
 */
export async function packDocumentOffLoop(dialect: Dialect, text: string, entryId: string): Promise<StoredDocument> {
  if (dialect !== 'sqlite') return text;
  const bytes = Buffer.from(text, 'utf8');
  // A dictionary of its own: the shared one is rewritten by the next call while this one is under way.
  const dictionary = Buffer.concat([DICTIONARY_2, Buffer.from(entryId, 'utf8')]);
  return framed(bytes.length, await deflateRawOnPool(bytes, { ...PACKING, dictionary }), entryId, text);
}

/** Format 2's header, then the deflated text. */
function framed(textBytes: number, packed: Buffer, entryId: string, text: string): Buffer {
  const stored = Buffer.allocUnsafe(HEADER_2 + packed.length);
  stored[0] = PACKED_FORMAT;
  stored.writeUInt32BE(textBytes, 1);
  stored.writeUInt16BE(ownerCheck(entryId), 5);
  packed.copy(stored, HEADER_2);
  remember(Buffer.from(stored), entryId, text);
  return stored;
}

/** Whether a row of entry `entryId` can keep the bytes `stored` as they are: all but another entry's format 2 can. */
export function readableAs(stored: StoredDocument, entryId: string): boolean {
  return typeof stored === 'string' || stored[0] !== FORMAT_2 || (stored.length >= HEADER_2 && ((stored[5] << 8) | stored[6]) === ownerCheck(entryId));
}

// An entry is read again and again while one request or job works on it (each step fetches
// its row anew, with bytes of its own), so the last few documents unpacked are kept: bytes
// equal to one of them are its text, found by comparing bytes (a fraction of a microsecond)
// instead of unpacking (15–20 µs a call).
const RECENT = 16;
const recent: Array<{ stored: Buffer; entryId: string; text: string }> = [];

/** The JSON text of entry `entryId`'s stored document, whichever form the row holds. */
export function documentText(stored: StoredDocument, entryId: string): string {
  if (typeof stored === 'string') return stored;
  const bytes = Buffer.from(stored.buffer, stored.byteOffset, stored.byteLength);
  for (const seen of recent) if (seen.entryId === entryId && seen.stored.equals(bytes)) return seen.text;
  const text = unpack(bytes, entryId);
  remember(Buffer.from(bytes), entryId, text);
  return text;
}

function unpack(bytes: Buffer, entryId: string): string {
  const format = bytes.length >= HEADER_1 ? bytes[0] : undefined;
  if (format !== FORMAT_1 && !(format === FORMAT_2 && bytes.length >= HEADER_2)) throw new Error(`a stored document of unknown format ${bytes[0]}`);
  if (format === FORMAT_2 && bytes.readUInt16BE(5) !== ownerCheck(entryId)) throw new Error(`a stored document packed for another entry than ${entryId}`);
  const length = bytes.readUInt32BE(1);
  const [body, dictionary] = format === FORMAT_1 ? [bytes.subarray(HEADER_1), DICTIONARY_1] : [bytes.subarray(HEADER_2), dictionaryOf(entryId)];
  // Unpacked by fflate (plain JavaScript), not node's zlib: each call of node's made a zlib
  // stream object whose native half is let go by a weak callback, run inside the next young-
  // generation collection. A feed page unpacks 100 documents, and every 40 pages or so a
  // collection stopped the service for 8-14 ms to run 6,000 such callbacks (its p99 page at a
  // million entries: 12-13 ms with node's zlib, 4-6 ms with fflate, for a median 30% higher).
  // Packing stays with node's zlib: fflate's deflate takes three times as long.
  // The output goes to a buffer one byte longer than the header says, so a stream that holds
  // more shows as one that does not fit; a small one comes from node's pool.
  const out = Buffer.allocUnsafe(length + 1);
  const inflated = inflateSync(body, { dictionary, out }).length;
  if (inflated !== length) throw new Error(`a stored document unpacks to ${inflated > length ? `more than ${length}` : inflated} bytes, not the ${length} it says`);
  return out.toString('utf8', 0, length);
}

function remember(stored: Buffer, entryId: string, text: string): void {
  if (recent.length === RECENT) recent.pop();
  recent.unshift({ stored, entryId, text });
}

/** Whether two stored forms hold the same bytes (each fetch of a row makes new ones). */
export function sameStored(a: StoredDocument | undefined, b: StoredDocument | undefined): boolean {
  if (a === b) return true;
  if (typeof a === 'string' || typeof b === 'string' || a === undefined || b === undefined) return false;
  return Buffer.compare(a, b) === 0;
}

/** The byte length of the text a stored document holds, packed or not, read from the packed form's header (not unpacked). */
export function storedTextBytes(stored: StoredDocument): number {
  if (typeof stored === 'string') return Buffer.byteLength(stored);
  return stored.length >= HEADER_1 ? Buffer.from(stored.buffer, stored.byteOffset, stored.byteLength).readUInt32BE(1) : 0;
}

/**
 * SQLite's expression for the byte length of the text a stored document holds, packed
 * or not (an export is sized by it): the packed form's header, read digit by digit from
 * its hex, as SQL has no function that reads an integer out of a blob.
 */
export function packedTextBytes(column: string): string {
  const hex = `hex(substr(${column}, 2, 4))`;
  const digits = Array.from({ length: 8 }, (_, i) => `(instr('0123456789ABCDEF', substr(${hex}, ${i + 1}, 1)) - 1) * ${16 ** (7 - i)}`);
  return `(CASE WHEN typeof(${column}) = 'blob' THEN ${digits.join(' + ')} ELSE octet_length(${column}) END)`;
}
