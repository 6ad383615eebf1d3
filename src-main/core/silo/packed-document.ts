import { deflateRawSync, inflateRawSync } from 'node:zlib';
import type { Dialect } from '../db/engine.ts';
import { DOCUMENT_DICTIONARY_1 } from './document-dictionary.ts';

/**
 * An entry's document as a row holds it (entries.data, entry_versions.data, jobs.envelope):
 * its JSON text, or packed. On SQLite a document is stored deflated against a dictionary
 * of GOBL's vocabulary (document-dictionary.ts, made from GOBL's schemas alone): 1,658
 * bytes of an average envelope become about 580, which is most of an entry's row. Rows
 * written before migration 0022 keep their text, and both forms read the same.
 * PostgreSQL keeps the text: it compresses long values itself (TOAST).
 */
export type StoredDocument = string | Uint8Array;

/**
 * A packed document is a format byte, the text's length in bytes (32-bit, big-endian:
 * what SQL reads to size an export without unpacking, packedTextBytes) and the text
 * deflated against the dictionary of that format. A new dictionary is a new format,
 * never a change to this one.
 */
const FORMAT_1 = 0x01;
const HEADER = 5;
const DICTIONARY_1 = Buffer.from(DOCUMENT_DICTIONARY_1, 'utf8');
// Packing looks back 8 KiB, not 32: deflate then primes itself with the dictionary's last
// 8 KiB only, and sets up a quarter of the memory, which is most of what a call costs for a
// document this small (a job's write: about a fifth less, for 1% more bytes). Unpacking, with
// the whole dictionary and the full window, reads either, as deflate's distances are relative.
// Its output goes to 2 KiB chunks, not node's default 16 KiB: a document packs to about 600
// bytes, and a 16 KiB buffer was allocated outside node's pool for every one (in an import's
// slice, with the collections it brought on, 20 µs of every entry). Deflate's output does not
// depend on the room it is given: a longer one takes several chunks, joined, the same bytes.
const PACKING = { dictionary: DICTIONARY_1, windowBits: 13, memLevel: 5, chunkSize: 2048 } as const;

/** The document text in the form a row of `dialect` stores it. */
export function packDocument(dialect: Dialect, text: string): StoredDocument {
  if (dialect !== 'sqlite') return text;
  const bytes = Buffer.from(text, 'utf8');
  const packed = deflateRawSync(bytes, PACKING);
  const stored = Buffer.allocUnsafe(HEADER + packed.length);
  stored[0] = FORMAT_1;
  stored.writeUInt32BE(bytes.length, 1);
  packed.copy(stored, HEADER);
  remember(Buffer.from(stored), text);
  return stored;
}

// An entry is read again and again while one request or job works on it (each step fetches
// its row anew, with bytes of its own), so the last few documents unpacked are kept: bytes
// equal to one of them are its text, found by comparing bytes (a fraction of a microsecond)
// instead of unpacking (node's zlib, 10–25 µs a call).
const RECENT = 16;
const recent: Array<{ stored: Buffer; text: string }> = [];

/** The JSON text of a stored document, whichever form the row holds. */
export function documentText(stored: StoredDocument): string {
  if (typeof stored === 'string') return stored;
  const bytes = Buffer.from(stored.buffer, stored.byteOffset, stored.byteLength);
  for (const seen of recent) if (seen.stored.equals(bytes)) return seen.text;
  if (bytes.length < HEADER || bytes[0] !== FORMAT_1) throw new Error(`a stored document of unknown format ${bytes[0]}`);
  const length = bytes.readUInt32BE(1);
  const out = inflateRawSync(bytes.subarray(HEADER), { dictionary: DICTIONARY_1, maxOutputLength: Math.max(length, 1) });
  if (out.length !== length) throw new Error(`a stored document unpacks to ${out.length} bytes, not the ${length} it says`);
  const text = out.toString('utf8');
  remember(Buffer.from(bytes), text);
  return text;
}

function remember(stored: Buffer, text: string): void {
  if (recent.length === RECENT) recent.pop();
  recent.unshift({ stored, text });
}

/** Whether two stored forms hold the same bytes (each fetch of a row makes new ones). */
export function sameStored(a: StoredDocument | undefined, b: StoredDocument | undefined): boolean {
  if (a === b) return true;
  if (typeof a === 'string' || typeof b === 'string' || a === undefined || b === undefined) return false;
  return Buffer.compare(a, b) === 0;
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
