import { ApiError } from '../core/api/errors.ts';

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
  const declared = Number(request.headers.get('content-length') ?? NaN);
  if (Number.isFinite(declared) && declared > max) throw tooLarge(max);
  if (!request.body) throw new ApiError('bad-request', 'request body is empty');

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
  if (size === 0) throw new ApiError('bad-request', 'request body is empty');
  const text = Buffer.concat(chunks, size).toString('utf8');
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new ApiError('bad-request', `request body is not valid JSON: ${(err as Error).message.slice(0, 200)}`);
  }
}

const tooLarge = (max: number) => new ApiError('too-large', `request body is larger than ${max} bytes`);
