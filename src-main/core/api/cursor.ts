import { createHmac, timingSafeEqual } from 'node:crypto';
import { badRequest } from './errors.ts';

/** A keyset position: the sort key of the last row of a page. */
export interface KeysetPosition {
  at: string;
  id: string;
}

/**
 * Opaque cursors: base64url JSON of the keyset position, bound to the list it came
 * from (`scope`) and signed with an instance secret, so a garbage, tampered or
 * misplaced cursor is a clear 400 instead of a silently wrong page.
 */
export function encodeCursor(secret: Buffer, scope: string, pos: KeysetPosition): string {
  const payload = Buffer.from(JSON.stringify([pos.at, pos.id])).toString('base64url');
  return `${payload}.${sign(secret, scope, payload)}`;
}

export function decodeCursor(secret: Buffer, scope: string, cursor: string): KeysetPosition {
  const invalid = () => badRequest('cursor is not valid for this list', { cursor: 'invalid or tampered cursor' });
  const [payload, mac, extra] = cursor.split('.');
  if (!payload || !mac || extra !== undefined) throw invalid();
  const expected = Buffer.from(sign(secret, scope, payload));
  const given = Buffer.from(mac);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw invalid();
  try {
    const [at, id] = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    if (typeof at !== 'string' || typeof id !== 'string') throw new Error();
    return { at, id };
  } catch {
    throw invalid();
  }
}

function sign(secret: Buffer, scope: string, payload: string): string {
  return createHmac('sha256', secret).update(scope).update('\0').update(payload).digest('base64url').slice(0, 22);
}
