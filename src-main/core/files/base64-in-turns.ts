// Base64 text of a file to its bytes, a part at a time. The usual way (check the text with
// atob, Buffer.from, then hash) holds the event loop for its whole length: about 160 ms for a
// 50 MiB attachment here. Node's decoder is fast (0.2 ms a 4 MiB part) but lenient: it skips
// whitespace and characters outside the alphabet, reads `-` and `_` as base64url's, and takes
// the low byte of a character past U+00FF. Skipped characters show as a part decoding to fewer
// bytes than its length says; the rest is refused before decoding. What comes out is what
// isBase64 (contract/common.ts) accepts, and the same bytes (base64-in-turns.test holds the two together).
import { TurnBudget } from '../turn-budget.ts';
import { BYTES_PER_TURN, hashBytesInTurns, type HashedBytes } from './hashed-bytes.ts';

/** Base64 text: a string, or where it is written in a buffer (a request body's bytes, one byte a character). */
export type Base64Text = string | { bytes: Buffer; start: number; end: number };

const EQUALS = 0x3d;

/**
 * The bytes the text says, with their hash; undefined when it is not standard base64 (padding
 * optional, no whitespace). A budget shared with other work lets others in across it.
 */
export async function decodeBase64InTurns(text: Base64Text, budget = new TurnBudget(BYTES_PER_TURN)): Promise<HashedBytes | undefined> {
  const length = typeof text === 'string' ? text.length : text.end - text.start;
  const charAt = typeof text === 'string' ? (i: number) => text.charCodeAt(i) : (i: number) => text.bytes[text.start + i];
  const part = typeof text === 'string' ? (a: number, b: number) => text.slice(a, b) : (a: number, b: number) => text.bytes.toString('latin1', text.start + a, text.start + b);

  // Padding only completes a last group of four.
  let core = length;
  if (length % 4 === 0) {
    if (core > 0 && charAt(core - 1) === EQUALS) core--;
    if (core > 0 && charAt(core - 1) === EQUALS) core--;
  }
  if (core % 4 === 1) return undefined;

  const out = Buffer.allocUnsafe(decodedLength(core));
  // Parts are whole groups of four, so each decodes on its own.
  const partChars = budget.perTurn - (budget.perTurn % 4);
  for (let at = 0; at < core; at += partChars) {
    const end = Math.min(core, at + partChars);
    const chars = part(at, end);
    if (!plainAlphabet(chars)) return undefined;
    const offset = decodedLength(at);
    if (out.write(chars, offset, 'base64') !== decodedLength(end) - offset) return undefined;
    await budget.spend(end - at);
  }
  return hashBytesInTurns(out, budget);
}

/** The bytes that `chars` characters of unpadded base64 stand for. */
function decodedLength(chars: number): number {
  return Math.floor(chars / 4) * 3 + [0, 0, 1, 2][chars % 4];
}

/**
 * No character the decoder would read as something it is not: base64url's two, padding before
 * the end, or any character past ASCII (whose low byte could be a letter of the alphabet).
 */
function plainAlphabet(chars: string): boolean {
  return !chars.includes('-') && !chars.includes('_') && !chars.includes('=') && Buffer.byteLength(chars, 'utf8') === chars.length;
}
