import { createHash } from 'node:crypto';
import { TurnBudget } from '../turn-budget.ts';
import { sha256Hex } from '../sha256.ts';
import { markHashedBytes } from './hashed-bytes-mark.ts';

declare const hashedBy: unique symbol;

/**
 * Bytes with their SHA-256. Only this module makes one, so a hash here is always the
 * bytes' own: the content store can file them under it without hashing them again
 * (a second pass over a 50 MiB upload held the event loop about 30 ms more).
 */
export interface HashedBytes {
  readonly bytes: Uint8Array;
  readonly hash: string;
  readonly [hashedBy]: true;
}

function hashed(bytes: Uint8Array, hash: string): HashedBytes {
  return markHashedBytes({ bytes, hash } as HashedBytes);
}

export function hashBytes(bytes: Uint8Array): HashedBytes {
  return hashed(bytes, sha256Hex(bytes));
}

/** Base64 data of a request body as bytes: a large one came decoded already (bytes-members.ts). */
export function bytesOf(data: string | HashedBytes): HashedBytes {
  return typeof data === 'string' ? hashBytes(Buffer.from(data, 'base64')) : data;
}

/**
 * How much work (bytes hashed, base64 characters decoded) is done between two chances for
 * other requests to run: about 2.5 ms of SHA-256 here, 3 ms of decoding.
 */
export const BYTES_PER_TURN = 4 * 1024 * 1024;

/**
 * hashBytes for bytes of any size: a 50 MiB file hashes in one turn of about 30 ms, so large
 * ones are hashed a part at a time. A budget shared with other work lets others in across it.
 */
export async function hashBytesInTurns(bytes: Uint8Array, budget = new TurnBudget(BYTES_PER_TURN)): Promise<HashedBytes> {
  const hash = createHash('sha256');
  for (let at = 0; at < bytes.byteLength; at += budget.perTurn) {
    const part = bytes.subarray(at, at + budget.perTurn);
    hash.update(part);
    await budget.spend(part.byteLength);
  }
  return hashed(bytes, hash.digest('hex'));
}
