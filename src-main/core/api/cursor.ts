import { createHmac, timingSafeEqual } from 'node:crypto';
import { badRequest } from './errors.ts';

/** One value of a keyset position: a sort key's value (null for a row without one). */
export type KeyValue = string | number | null;

/**
 * Opaque cursors: base64url JSON of the keyset position (the sort key of the last row
 * served), bound to the list it came from (`scope`) and signed with an instance
 * secret, so a garbage, tampered or misplaced cursor is a clear 400 instead of a
 * silently wrong page.
 */
export function encodeCursor(secret: Buffer, scope: string, position: readonly KeyValue[]): string {
  const payload = Buffer.from(JSON.stringify(position)).toString('base64url');
  return `${payload}.${sign(secret, scope, payload)}`;
}

/** The position a cursor holds; it must have `arity` values, each a string, a number or null. */
export function decodeCursor(secret: Buffer, scope: string, cursor: string, arity: number): KeyValue[] {
  const [payload, mac, extra] = cursor.split('.');
  if (!payload || !mac || extra !== undefined) throw invalidCursor();
  const expected = Buffer.from(sign(secret, scope, payload));
  const given = Buffer.from(mac);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw invalidCursor();
  let position: unknown;
  try {
    position = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    throw invalidCursor();
  }
  if (!Array.isArray(position) || position.length !== arity || !position.every(isKeyValue)) throw invalidCursor();
  return position;
}

export const invalidCursor = () => badRequest('cursor is not valid for this list', { cursor: 'invalid or tampered cursor' });

const isKeyValue = (v: unknown): v is KeyValue => v === null || typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v));

function sign(secret: Buffer, scope: string, payload: string): string {
  return createHmac('sha256', secret).update(scope).update('\0').update(payload).digest('base64url').slice(0, 22);
}
