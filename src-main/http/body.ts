import { ApiError } from '../core/api/errors.ts';
import { letOthersIn } from '../core/let-others-in.ts';
import type { BytesPath } from '../core/api/bytes-members.ts';
import { YIELD_EVERY_CHARS } from './json-body.ts';
import { parseJsonLifting } from './json-lift.ts';
import { GrowingBuffer } from './growing-buffer.ts';
import { scanJson } from './json-scan.ts';

/** What a body is read from: a web Request, or a Node request seen the same way (node-front.ts). */
export interface BodySource {
  headers: { get(name: string): string | null };
  body: ReadableStream<Uint8Array> | null;
}

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;

/**
 * Reads and parses a JSON request body with a hard size cap; the files of an operation that
 * takes them (`bytesPaths`) come decoded (json-lift.ts). The cap is enforced
 * while streaming, so a huge or endless body costs at most `max` bytes of memory,
 * and a client that disconnects mid-upload leaves nothing behind (the handler
 * never runs).
 */
export async function readJsonBody(request: BodySource, max: number, bytesPaths: readonly BytesPath[] = []): Promise<unknown> {
  const type = request.headers.get('content-type') ?? '';
  if (!JSON_TYPE.test(type)) {
    throw new ApiError('unsupported-media-type', `Content-Type must be application/json (got ${type ? JSON.stringify(type.slice(0, 100)) : 'none'})`);
  }
  const bytes = await readBodyBytes(request, max);
  if (bytes.byteLength === 0) throw new ApiError('bad-request', 'request body is empty');
  return parseJsonLifting(bytes, bytesPaths);
}

/**
 * How many bytes of a body are taken in between two chances for other requests to run. A
 * client that sends a large body at once has it all waiting in the socket, and its chunks
 * would otherwise be read one after another in a single turn (a 1.6 MB import: 10-22 ms).
 */
export const YIELD_EVERY_BYTES = 512 * 1024;

/**
 * The request's bytes, at most `max` of them: the cap is enforced while streaming
 * (and before, from Content-Length), so an endless body costs `max` bytes at most.
 * What the caller does with a large body (decoding, parsing, encoding it) starts a
 * turn of its own: the reading of its last chunks has had one.
 */
export async function readBodyBytes(request: BodySource, max: number): Promise<Buffer> {
  const declared = Number(request.headers.get('content-length') ?? NaN);
  if (Number.isFinite(declared) && declared > max) throw tooLarge(max);
  if (!request.body) return Buffer.alloc(0);

  const bytes = new GrowingBuffer(declared);
  let sinceYield = 0;
  const reader = request.body.getReader();
  for (;;) {
    const { done, value } = await reader.read().catch(() => {
      throw new ApiError('bad-request', 'the request body was cut off');
    });
    if (done) break;
    if (bytes.size + value.byteLength > max) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge(max);
    }
    bytes.append(value);
    sinceYield += value.byteLength;
    if (sinceYield >= YIELD_EVERY_BYTES) {
      await letOthersIn();
      sinceYield = 0;
    }
  }
  if (bytes.size >= YIELD_EVERY_CHARS && sinceYield > 0) await letOthersIn();
  return bytes.bytes();
}

const tooLarge = (max: number) => new ApiError('too-large', `request body is larger than ${max} bytes`);

/** How deep `[` and `{` nest in JSON text, outside strings; stops counting past `limit`. */
export function nestingDepth(text: string, limit: number): number {
  return scanJson(text, limit).depth;
}
