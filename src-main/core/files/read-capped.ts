import { letOthersIn } from '../let-others-in.ts';
import { GrowingBuffer } from './growing-buffer.ts';

/** More bytes came, or were declared, than the reader may hold. */
export class TooManyBytes extends Error {
  readonly max: number;
  constructor(max: number) {
    super(`more than ${max} bytes`);
    this.max = max;
  }
}

/**
 * How many bytes are taken in between two chances for others to run. A peer that sends a
 * large body at once has it all waiting in the socket, and its chunks would otherwise be
 * read one after another in a single turn (a 1.6 MB import: 10-22 ms).
 */
export const YIELD_EVERY_BYTES = 512 * 1024;

/** From this size on, what the caller does with the bytes (parsing, decoding) starts a turn of its own. */
const LARGE_BYTES = 128 * 1024;

/**
 * A stream's bytes, at most `max` of them: refused from the declared length before anything is
 * read, and while streaming whatever was declared (a lie in Content-Length changes nothing), so
 * an endless stream costs `max` bytes at most. A request body and an answer from a sync peer are
 * read this way.
 */
export async function readCapped(stream: ReadableStream<Uint8Array> | null, max: number, declared?: number): Promise<Buffer> {
  // The stream is left to the caller then: a server still answers on the request's socket.
  if (declared !== undefined && Number.isFinite(declared) && declared > max) throw new TooManyBytes(max);
  if (!stream) return Buffer.alloc(0);
  const bytes = new GrowingBuffer(declared);
  let sinceYield = 0;
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (bytes.size + value.byteLength > max) {
      await reader.cancel().catch(() => undefined);
      throw new TooManyBytes(max);
    }
    bytes.append(value);
    sinceYield += value.byteLength;
    if (sinceYield >= YIELD_EVERY_BYTES) {
      await letOthersIn();
      sinceYield = 0;
    }
  }
  if (bytes.size >= LARGE_BYTES && sinceYield > 0) await letOthersIn();
  return bytes.bytes();
}
