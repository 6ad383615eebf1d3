// What a GOBL signature signs (head.SigningPayload, GOBL ≥ v0.300): not the whole head, only the
// document's identity — head.uuid and head.dig — plus claims about this signature: `iat` (Unix
// seconds, always set), and optionally `iss`/`aud` (gobl: URIs) and `scope`. Stamps, links, notes
// and the rest of the head may change after signing. Field order is Go's struct order; empty
// optional claims are left out.
import type { Node } from '../engine/types.ts';

export interface Digest { alg: string; val: string }

export interface SigningPayload {
  uuid: string;
  dig: Digest | null;
  iss?: string;
  aud?: string;
  iat?: number;
  scope?: string;
}

export interface SignClaims {
  iat: number;
  iss?: string;
  aud?: string;
  scope?: string;
}

function digestOf(dig: unknown): Digest | null {
  if (typeof dig !== 'object' || dig === null) return null;
  const d = dig as Node;
  return { alg: String(d.alg ?? ''), val: String(d.val ?? '') };
}

export function signingPayload(head: Node, claims: SignClaims): SigningPayload {
  const payload: SigningPayload = { uuid: String(head.uuid ?? ''), dig: digestOf(head.dig) };
  if (claims.iss) payload.iss = claims.iss;
  if (claims.aud) payload.aud = claims.aud;
  if (claims.iat) payload.iat = claims.iat;
  if (claims.scope) payload.scope = claims.scope;
  return payload;
}

/** GOBL's matchPayload: the same uuid, and digests both absent or equal in algorithm and value. */
export function payloadMatchesHead(payload: Node, head: Node): boolean {
  if (String(payload.uuid ?? '') !== String(head.uuid ?? '')) return false;
  const a = digestOf(payload.dig);
  const b = digestOf(head.dig);
  if (!a || !b) return a === b;
  return a.alg === b.alg && a.val === b.val;
}
