import { sha256Hex } from '../sha256.ts';
import { decodeJws } from '../keys/jws.ts';

/**
 * What the service signs for each entry. `prev` is the SHA-256 of the previous
 * entry's signed payload bytes exactly as they appear in its JWS, so whoever
 * checks the chain hashes bytes they already hold and never has to re-serialise
 * JSON the same way we did. Keys are written in this order, but nothing relies on it.
 */
export interface EntryPayload {
  series_id: string;
  id: string;
  index: number;
  code: string;
  previous_id: string | null;
  /** hex SHA-256 of the previous entry's payload bytes; '' for the first entry */
  prev: string;
  meta: Record<string, string>;
  /** created_at of the entry */
  at: string;
  /** instance id of the issuer */
  iss: string;
  /** hex SHA-256 of the client's JWS, when one came with the entry */
  csig?: string;
}

/** What the service signs for a series: the fields that decide its numbers. */
export interface SeriesPayload {
  series_id: string;
  code: string;
  prefix: string;
  padding: number;
  suffix: string;
  start: number;
  iss: string;
  /** when these numbering fields were set */
  at: string;
  csig?: string;
}

/** The link the next entry carries: hash of this entry's signed payload bytes. */
export const chainHashOf = (serviceSig: string): string => sha256Hex(decodeJws(serviceSig).payloadBytes);

/** Meta with its keys sorted, so equal meta is stored and signed identically. */
export function sortedMeta(meta: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.keys(meta).sort().map((k) => [k, meta[k]]));
}
