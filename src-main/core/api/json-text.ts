import { randomBytes } from 'node:crypto';
import { letOthersIn } from '../let-others-in.ts';

/**
 * A value that is already JSON text (a stored document), put into an answer as it
 * is. The sync feed's page is a hundred documents: parsing each only for
 * JSON.stringify to write it back was half the page's time and most of its garbage
 * (the p99 and the longest event-loop block at a million entries).
 *
 * Only `writeJson` splices the text in; anything else that serialises one (an
 * output check, a test's JSON.stringify) gets the parsed value, so it can never be
 * written wrong, only slower.
 */
export class JsonText {
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }

  toJSON(): unknown {
    if (!spliced) return JSON.parse(this.text);
    spliced.push(this.text);
    return MARKER;
  }
}

/**
 * Bytes a body carries as base64 (a sync read's answer, a sync push's request). Written by
 * writeJsonBody a part at a time into the body as it streams out: a 50 MiB file made into one
 * base64 string, then one JSON string, then bytes for the socket, held the event loop for over
 * 100 ms. Anything else that serialises one gets the base64 text.
 */
export class Base64Bytes {
  readonly bytes: Uint8Array;
  constructor(bytes: Uint8Array) {
    this.bytes = bytes;
  }

  toJSON(): unknown {
    if (!spliced) return Buffer.from(this.bytes.buffer, this.bytes.byteOffset, this.bytes.byteLength).toString('base64');
    spliced.push(this);
    return MARKER;
  }
}

// A string no answer holds by chance: JSON.stringify writes the NUL as `\u0000`,
// and the rest is random per process, so no client can send it to be replaced.
const MARKER = `\u0000${randomBytes(18).toString('base64url')}`;
const WRITTEN_MARKER = JSON.stringify(MARKER);

// The values met while writeJson's JSON.stringify runs (synchronously, so one at a time).
let spliced: Array<string | Base64Bytes> | undefined;

/** JSON.stringify's text split where each JsonText or Base64Bytes goes, or undefined when the marker turned up where it should not. */
function splitAtSpliced(value: unknown): { json: string; parts?: string[]; items: Array<string | Base64Bytes> } | undefined {
  const items: Array<string | Base64Bytes> = [];
  spliced = items;
  let json: string;
  try {
    json = JSON.stringify(value);
  } finally {
    spliced = undefined;
  }
  if (items.length === 0) return { json, items };
  const parts = json.split(WRITTEN_MARKER);
  // One part more than items, or the marker turned up where it should not: written the slow way.
  return parts.length === items.length + 1 ? { json, parts, items } : undefined;
}

const textOf = (item: string | Base64Bytes) => (typeof item === 'string' ? item : JSON.stringify(item));

/** The answer's text in one piece from its split (writeJson's, and writeJsonBody's without files). */
function joined(value: unknown, split: ReturnType<typeof splitAtSpliced>): string {
  if (!split) return JSON.stringify(value);
  if (!split.parts) return split.json;
  let out = split.parts[0];
  for (let i = 0; i < split.items.length; i++) out += textOf(split.items[i]) + split.parts[i + 1];
  return out;
}

/** JSON.stringify(value), with each JsonText written as its own text. */
export function writeJson(value: unknown): string {
  return joined(value, splitAtSpliced(value));
}

/** A body written out a part at a time: its length first, for Content-Length; chunks() may be read again (a retried request). */
export interface JsonInParts {
  length: number;
  chunks(): AsyncIterable<Uint8Array>;
}

/**
 * From this length on an answer's text goes out a part at a time: a 4.4 MB entry encoded to
 * UTF-8 for the socket in one write held the event loop 20 ms.
 */
export const TEXT_IN_PARTS_FROM = 1024 * 1024;
/** Characters encoded per part: about 1 ms. */
const TEXT_PART_CHARS = 256 * 1024;

/** A text as a body written out a part at a time, each part in a turn of its own. */
export function textInParts(text: string): JsonInParts {
  return {
    length: Buffer.byteLength(text),
    async *chunks() {
      for (let at = 0; at < text.length; ) {
        let end = Math.min(at + TEXT_PART_CHARS, text.length);
        // Never between the two halves of a surrogate pair: each part is UTF-8 of its own.
        const last = text.charCodeAt(end - 1);
        if (end < text.length && last >= 0xd800 && last <= 0xdbff) end--;
        if (at > 0) await letOthersIn();
        yield Buffer.from(text.slice(at, end), 'utf8');
        at = end;
      }
    },
  };
}

/** Bytes encoded per part (a multiple of 3, so the parts' base64 joins up): about 2 ms of encoding here. */
export const BASE64_BYTES_PER_PART = 3 * 1024 * 1024;

/**
 * The text of a JSON body (an answer; a request sync sends its peer): writeJson's, or, when the
 * value holds Base64Bytes, the same text in parts, each file encoded a part at a time.
 */
export function writeJsonBody(value: unknown): string | JsonInParts {
  const split = splitAtSpliced(value);
  // Without files, the text already written: every JSON answer comes through here.
  if (!split?.parts || !split.items.some((item) => item instanceof Base64Bytes)) {
    const text = joined(value, split);
    return text.length >= TEXT_IN_PARTS_FROM ? textInParts(text) : text;
  }
  const { parts, items } = split;
  // The text around the files, JsonTexts spliced in: segments[i] goes before files[i], the last one after them all.
  const segments: string[] = [parts[0]];
  const files: Base64Bytes[] = [];
  items.forEach((item, i) => {
    if (item instanceof Base64Bytes) {
      files.push(item);
      segments.push(parts[i + 1]);
    } else {
      segments[segments.length - 1] += item + parts[i + 1];
    }
  });
  const length =
    segments.reduce((n, text) => n + Buffer.byteLength(text), 0) + files.reduce((n, file) => n + 2 + Math.ceil(file.bytes.byteLength / 3) * 4, 0);
  return {
    length,
    async *chunks() {
      for (let i = 0; i < files.length; i++) {
        yield Buffer.from(`${segments[i]}"`);
        const { bytes } = files[i];
        const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
        for (let at = 0; at < buffer.byteLength; at += BASE64_BYTES_PER_PART) {
          // Each part in a turn of its own: the stream may ask for the next at once.
          await letOthersIn();
          yield Buffer.from(buffer.toString('base64', at, Math.min(at + BASE64_BYTES_PER_PART, buffer.byteLength)), 'latin1');
        }
        yield Buffer.from('"');
      }
      yield Buffer.from(segments[files.length]);
    },
  };
}
