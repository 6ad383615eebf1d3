import { ApiError } from '../core/api/errors.ts';
import type { BytesPath } from '../core/api/bytes-members.ts';
import { parseJsonLifting } from '../core/api/json-lift.ts';
import { readCapped, TooManyBytes } from '../core/files/read-capped.ts';
import { parseJsonBody } from './json-body.ts';
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
  return parseJsonLifting(bytes, bytesPaths, parseJsonBody);
}

/**
 * The request's bytes, at most `max` of them (read-capped.ts): a declared length over the cap is
 * refused before anything is read, and an endless body costs `max` bytes at most.
 */
export async function readBodyBytes(request: BodySource, max: number): Promise<Buffer> {
  try {
    return await readCapped(request.body, max, Number(request.headers.get('content-length') ?? NaN));
  } catch (err) {
    if (err instanceof TooManyBytes) throw tooLarge(max);
    throw new ApiError('bad-request', 'the request body was cut off');
  }
}

const tooLarge = (max: number) => new ApiError('too-large', `request body is larger than ${max} bytes`);

/** How deep `[` and `{` nest in JSON text, outside strings; stops counting past `limit`. */
export function nestingDepth(text: string, limit: number): number {
  return scanJson(text, limit).depth;
}
