// Checks an envelope's signatures as GOBL's Envelope.Verify does — each JWS must verify with one
// of the given public keys (GOBL tries every key, whatever the kid) and its payload must name the
// head's uuid and digest — and, beyond Verify, that the head's digest still matches the document
// (GOBL reports that as GOBL-ENVELOPE-11 when it validates). Together: the doc is what was signed.
import { createPublicKey, verify as ecdsaVerify, type KeyObject } from 'node:crypto';
import { decodeJws, isCompactJws } from '../../keys/jws.ts';
import { digestOf } from '../canonical.ts';
import type { Node } from '../engine/types.ts';
import { payloadMatchesHead } from './payload.ts';
import type { SigningPayload } from './payload.ts';

/** A public JWK as GOBL keeps it; `valid_from` / `valid_until` (RFC 3339) bound the signing time. */
export interface VerifyingJwk {
  kty: string;
  crv?: string;
  x?: string;
  y?: string;
  kid?: string;
  valid_from?: string;
  valid_until?: string;
}

export type SigProblem =
  | 'malformed'          // not a compact ES256 JWS with a JSON payload
  | 'no-matching-key'    // none of the keys verifies it (GOBL: "no key match found")
  | 'head-mismatch'      // it signs another uuid or digest than the head's (GOBL: "payload mismatch")
  | 'outside-key-window' // signed (iat) outside the key's valid_from..valid_until
  | 'doc-changed';       // it signs this head, but the document no longer matches head.dig

export interface SigCheck {
  index: number;
  kid?: string;
  valid: boolean;
  problem?: SigProblem;
  payload?: SigningPayload;
}

export interface SigsReport {
  /** Every signature verifies and the document matches the head; false when there are none. */
  valid: boolean;
  digestMatches: boolean;
  sigs: SigCheck[];
}

interface LoadedKey { jwk: VerifyingJwk; key: KeyObject }

function loadKeys(jwks: { keys: VerifyingJwk[] } | VerifyingJwk[]): LoadedKey[] {
  const list = Array.isArray(jwks) ? jwks : jwks.keys;
  const out: LoadedKey[] = [];
  for (const jwk of list) {
    if (jwk.kty !== 'EC' || jwk.crv !== 'P-256') continue;
    try {
      out.push({ jwk, key: createPublicKey({ key: { kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y }, format: 'jwk' }) });
    } catch {
      // a broken key verifies nothing; the others still may
    }
  }
  return out;
}

function withinWindow(jwk: VerifyingJwk, iat: unknown): boolean {
  if (typeof iat !== 'number' || iat <= 0) return true;
  const at = iat * 1000;
  if (jwk.valid_from && at < Date.parse(jwk.valid_from)) return false;
  if (jwk.valid_until && at > Date.parse(jwk.valid_until)) return false;
  return true;
}

function parsePayload(bytes: Buffer): SigningPayload | undefined {
  try {
    const value = JSON.parse(bytes.toString('utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

function checkSig(jws: unknown, index: number, head: Node, keys: LoadedKey[], docMatches: boolean): SigCheck {
  if (typeof jws !== 'string' || !isCompactJws(jws)) return { index, valid: false, problem: 'malformed' };
  let header: Record<string, unknown>;
  let payloadBytes: Buffer;
  try {
    ({ header, payloadBytes } = decodeJws(jws));
  } catch {
    return { index, valid: false, problem: 'malformed' };
  }
  const kid = typeof header.kid === 'string' ? header.kid : undefined;
  const payload = parsePayload(payloadBytes);
  if (header.alg !== 'ES256' || !payload) return { index, kid, valid: false, problem: 'malformed' };
  const [protectedPart, payloadPart, signaturePart] = jws.split('.');
  const signature = Buffer.from(signaturePart, 'base64url');
  const input = Buffer.from(`${protectedPart}.${payloadPart}`);
  const signer = signature.length === 64
    ? keys.find(({ key }) => ecdsaVerify('sha256', input, { key, dsaEncoding: 'ieee-p1363' }, signature))
    : undefined;
  if (!signer) return { index, kid, valid: false, problem: 'no-matching-key', payload };
  if (!payloadMatchesHead(payload, head)) return { index, kid, valid: false, problem: 'head-mismatch', payload };
  if (!withinWindow(signer.jwk, payload.iat)) return { index, kid, valid: false, problem: 'outside-key-window', payload };
  if (!docMatches) return { index, kid, valid: false, problem: 'doc-changed', payload };
  return { index, kid, valid: true, payload };
}

export function verifyEnvelopeSigs(envelope: Node, jwks: { keys: VerifyingJwk[] } | VerifyingJwk[]): SigsReport {
  const head: Node = typeof envelope.head === 'object' && envelope.head !== null ? envelope.head : {};
  const doc = envelope.doc;
  const actual = typeof doc === 'object' && doc !== null ? digestOf(doc) : undefined;
  const digestMatches = actual !== undefined && head.dig?.alg === actual.alg && head.dig?.val === actual.val;
  const keys = loadKeys(jwks);
  const list: unknown[] = Array.isArray(envelope.sigs) ? envelope.sigs : [];
  const sigs = list.map((jws, i) => checkSig(jws, i, head, keys, digestMatches));
  return { valid: sigs.length > 0 && digestMatches && sigs.every((s) => s.valid), digestMatches, sigs };
}
