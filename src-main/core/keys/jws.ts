import { sign as ecdsaSign, verify as ecdsaVerify, type KeyObject } from 'node:crypto';

/** Why a signature was not accepted; verification reports name these. */
export type SignatureProblem = 'malformed' | 'unknown-kid' | 'bad-signature';

export class SignatureError extends Error {
  readonly problem: SignatureProblem;
  constructor(problem: SignatureProblem, message: string) {
    super(message);
    this.problem = problem;
  }
}

const COMPACT_JWS = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

/** Three non-empty base64url parts: the shape of a compact JWS (not a proof of anything). */
export const isCompactJws = (value: string): boolean => COMPACT_JWS.test(value);

export interface DecodedJws {
  header: Record<string, unknown>;
  /** the exact bytes that were signed as the payload */
  payloadBytes: Buffer;
}

/** Splits a compact JWS without verifying it: for reading the kid and the signed bytes. */
export function decodeJws(jws: string): DecodedJws {
  if (!isCompactJws(jws)) throw new SignatureError('malformed', 'not a compact JWS');
  const [header, payload] = jws.split('.');
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(header, 'base64url').toString('utf8'));
  } catch {
    throw new SignatureError('malformed', 'the JWS header is not JSON');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new SignatureError('malformed', 'the JWS header is not an object');
  }
  return { header: parsed as Record<string, unknown>, payloadBytes: Buffer.from(payload, 'base64url') };
}

/**
 * Signs synchronously with node:crypto (jose only signs asynchronously): series
 * numbering signs inside a SQLite transaction, which cannot await. ES256 in JWS
 * is the raw r||s pair (IEEE P1363), not DER.
 */
export function signCompactEs256(privateKey: KeyObject, kid: string, payload: object): string {
  const header = Buffer.from(JSON.stringify({ alg: 'ES256', kid })).toString('base64url');
  const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
  const input = `${header}.${body}`;
  // Signing with the bare key (DER out) and reordering takes half the time of asking for P1363:
  // node:crypto prepares a key handed inside an options object anew on every call (17 µs against 33).
  const signature = p1363OfDer(ecdsaSign('sha256', Buffer.from(input), privateKey));
  return `${input}.${signature.toString('base64url')}`;
}

/**
 * An ECDSA signature's DER form (SEQUENCE of INTEGER r, INTEGER s) as JWS writes it: r
 * and s, each as `size` big-endian bytes (32 for P-256). Throws on anything else.
 */
export function p1363OfDer(der: Uint8Array, size = 32): Buffer {
  const fail = (): never => {
    throw new Error('not a DER ECDSA signature');
  };
  // The sequence's length fits one byte for P-256 (at most 2 × 35 bytes); a long form is read too.
  let at = 2;
  if (der[0] !== 0x30) fail();
  if (der[1] & 0x80) at += der[1] & 0x7f;
  const out = Buffer.alloc(size * 2);
  for (const half of [0, 1]) {
    if (der[at] !== 0x02) fail();
    const length = der[at + 1];
    let start = at + 2;
    const end = start + length;
    if (length === 0 || end > der.length) fail();
    // A leading zero only keeps the integer positive; a value shorter than `size` is padded.
    while (start < end - 1 && der[start] === 0) start++;
    if (end - start > size) fail();
    out.set(der.subarray(start, end), half * size + size - (end - start));
    at = end;
  }
  if (at !== der.length) fail();
  return out;
}

/**
 * Checks a compact ES256 JWS with `keyOf(kid)` synchronously and answers its payload
 * object. Synchronous because sync applies signed records inside a SQLite
 * transaction, which cannot await. Throws SignatureError.
 */
export function verifyEs256(jws: string, keyOf: (kid: string) => KeyObject | undefined, whose: string): Record<string, unknown> {
  const { header, payloadBytes } = decodeJws(jws);
  if (header.alg !== 'ES256') throw new SignatureError('malformed', `unsupported alg ${String(header.alg)}`);
  const key = typeof header.kid === 'string' ? keyOf(header.kid) : undefined;
  if (!key) throw new SignatureError('unknown-kid', `no key ${String(header.kid)} of ${whose}`);
  const [h, p, s] = jws.split('.');
  const ok = ecdsaVerify('sha256', Buffer.from(`${h}.${p}`), { key, dsaEncoding: 'ieee-p1363' }, Buffer.from(s, 'base64url'));
  if (!ok) throw new SignatureError('bad-signature', 'the signature does not match');
  let payload: unknown;
  try {
    payload = JSON.parse(payloadBytes.toString('utf8'));
  } catch {
    throw new SignatureError('malformed', 'the JWS payload is not JSON');
  }
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) {
    throw new SignatureError('malformed', 'the JWS payload is not an object');
  }
  return payload as Record<string, unknown>;
}
