import { ApiError } from '../core/api/errors.ts';
import { parseJsonText } from '../core/gobl/shape/parse.ts';

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;

/**
 * Reads and parses a JSON request body with a hard size cap. The cap is enforced
 * while streaming, so a huge or endless body costs at most `max` bytes of memory,
 * and a client that disconnects mid-upload leaves nothing behind (the handler
 * never runs).
 */
export async function readJsonBody(request: Request, max: number): Promise<unknown> {
  const type = request.headers.get('content-type') ?? '';
  if (!JSON_TYPE.test(type)) {
    throw new ApiError('unsupported-media-type', `Content-Type must be application/json (got ${type ? JSON.stringify(type.slice(0, 100)) : 'none'})`);
  }
  const bytes = await readBodyBytes(request, max);
  if (bytes.byteLength === 0) throw new ApiError('bad-request', 'request body is empty');
  const text = bytes.toString('utf8');
  const depth = nestingDepth(text, MAX_JSON_DEPTH);
  if (depth > MAX_JSON_DEPTH) {
    throw new ApiError('bad-request', `request body nests objects and arrays more than ${MAX_JSON_DEPTH} levels deep`);
  }
  try {
    // Numbers keep their written text where a float would lose it (GOBL amounts keep "10.50";
    // a document's 9e1 or 20-digit amount is refused with its path rather than silently read).
    return parseJsonText(text);
  } catch (err) {
    throw new ApiError('bad-request', `request body is not valid JSON: ${(err as Error).message.slice(0, 200)}`);
  }
}

/**
 * The request's bytes, at most `max` of them: the cap is enforced while streaming
 * (and before, from Content-Length), so an endless body costs `max` bytes at most.
 */
export async function readBodyBytes(request: Request, max: number): Promise<Buffer> {
  const declared = Number(request.headers.get('content-length') ?? NaN);
  if (Number.isFinite(declared) && declared > max) throw tooLarge(max);
  if (!request.body) return Buffer.alloc(0);

  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = request.body.getReader();
  for (;;) {
    const { done, value } = await reader.read().catch(() => {
      throw new ApiError('bad-request', 'the request body was cut off');
    });
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge(max);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, size);
}

const tooLarge = (max: number) => new ApiError('too-large', `request body is larger than ${max} bytes`);

/**
 * Far deeper than any document (a GOBL invoice nests about ten levels). What walks
 * a parsed body recursively (validation, canonical JSON) would otherwise run out
 * of stack on a body nested thousands deep, and answer 500 instead of 400.
 */
export const MAX_JSON_DEPTH = 256;

/** How deep `[` and `{` nest in JSON text, outside strings; stops counting past `limit`. */
export function nestingDepth(text: string, limit: number): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) max = depth;
      if (max > limit) return max;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return max;
}
