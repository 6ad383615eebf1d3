import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor } from '../../src-main/core/api/cursor.ts';
import { ApiError } from '../../src-main/core/api/errors.ts';

const secret = randomBytes(32);
const pos = { at: '2026-01-02T03:04:05.678Z', id: '0190c1a0-0000-7000-8000-000000000001' };

describe('list cursors', () => {
  it('round-trips a keyset position within its scope', () => {
    expect(decodeCursor(secret, 'entries|a', encodeCursor(secret, 'entries|a', pos))).toEqual(pos);
  });

  it.each([
    ['garbage', 'garbage'],
    ['empty mac', 'abc.'],
    ['three parts', 'a.b.c'],
    ['json but unsigned', `${Buffer.from(JSON.stringify([pos.at, pos.id])).toString('base64url')}.AAAAAAAAAAAAAAAAAAAAAA`],
  ])('refuses %s with a bad-request', (_, cursor) => {
    expect(() => decodeCursor(secret, 'entries|a', cursor)).toThrow(ApiError);
    try {
      decodeCursor(secret, 'entries|a', cursor);
    } catch (err) {
      expect((err as ApiError).status).toBe(400);
    }
  });

  it('refuses a cursor from another list, another instance, or with an edited position', () => {
    const cursor = encodeCursor(secret, 'entries|a', pos);
    expect(() => decodeCursor(secret, 'entries|b', cursor)).toThrow(ApiError);
    expect(() => decodeCursor(randomBytes(32), 'entries|a', cursor)).toThrow(ApiError);
    const [, mac] = cursor.split('.');
    const edited = Buffer.from(JSON.stringify(['2099-01-01T00:00:00.000Z', pos.id])).toString('base64url');
    expect(() => decodeCursor(secret, 'entries|a', `${edited}.${mac}`)).toThrow(ApiError);
  });
});
