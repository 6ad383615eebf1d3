import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor } from '../../src-main/core/api/cursor.ts';
import { ApiError } from '../../src-main/core/api/errors.ts';
import { afterPosition, keysetPage } from '../../src-main/core/api/keyset-page.ts';

const secret = randomBytes(32);
const pos = ['2026-01-02T03:04:05.678Z', '0190c1a0-0000-7000-8000-000000000001'];

/** The same, for what answers a promise (a list's page reads the database). */
async function refusedWith400Async(fn: () => Promise<unknown>): Promise<void> {
  let caught: unknown;
  try {
    await fn();
  } catch (err) {
    caught = err;
  }
  expect(caught).toBeInstanceOf(ApiError);
  expect((caught as ApiError).status).toBe(400);
}

function refusedWith400(fn: () => unknown): void {
  let caught: unknown;
  try {
    fn();
  } catch (err) {
    caught = err;
  }
  expect(caught).toBeInstanceOf(ApiError);
  expect((caught as ApiError).status).toBe(400);
}

describe('list cursors', () => {
  it('round-trips a keyset position within its scope', () => {
    expect(decodeCursor(secret, 'entries|a', encodeCursor(secret, 'entries|a', pos), 2)).toEqual(pos);
    expect(decodeCursor(secret, 'x', encodeCursor(secret, 'x', ['n', null, 3]), 3)).toEqual(['n', null, 3]);
  });

  it.each([
    ['garbage', 'garbage'],
    ['empty mac', 'abc.'],
    ['three parts', 'a.b.c'],
    ['json but unsigned', `${Buffer.from(JSON.stringify(pos)).toString('base64url')}.AAAAAAAAAAAAAAAAAAAAAA`],
  ])('refuses %s with a bad-request', (_, cursor) => {
    refusedWith400(() => decodeCursor(secret, 'entries|a', cursor, 2));
  });

  it('refuses a cursor from another list, another instance, with an edited position or another arity', () => {
    const cursor = encodeCursor(secret, 'entries|a', pos);
    refusedWith400(() => decodeCursor(secret, 'entries|b', cursor, 2));
    refusedWith400(() => decodeCursor(randomBytes(32), 'entries|a', cursor, 2));
    refusedWith400(() => decodeCursor(secret, 'entries|a', cursor, 3));
    const [, mac] = cursor.split('.');
    const edited = Buffer.from(JSON.stringify(['2099-01-01T00:00:00.000Z', pos[1]])).toString('base64url');
    refusedWith400(() => decodeCursor(secret, 'entries|a', `${edited}.${mac}`, 2));
  });
});

describe('keysetPage', () => {
  const rows = Array.from({ length: 7 }, (_, i) => ({ n: i, name: `r${i}` }));
  /** descending by n, as a list's query would fetch them */
  const list = (cursor?: string, limit = 3) =>
    keysetPage<{ n: number; name: string }>({
      secret,
      scope: 'test',
      cursor,
      limit,
      shape: ['int'],
      key: (r) => [r.n],
      fetch: async (after, take) => rows.filter((r) => after === undefined || r.n < (after[0] as number)).reverse().slice(0, take),
    });

  it('walks every row once, in order, and says where the next page starts until the last', async () => {
    const seen: number[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await list(cursor);
      seen.push(...page.rows.map((r) => r.n));
      cursor = page.nextCursor;
      pages++;
    } while (cursor);
    expect(seen).toEqual([6, 5, 4, 3, 2, 1, 0]);
    expect(pages).toBe(3);
    // a page that ends exactly at the last row has no next cursor
    expect((await list(undefined, 7)).nextCursor).toBeUndefined();
  });

  it('refuses a cursor whose position does not fit the list (a string where a number belongs)', async () => {
    const foreign = encodeCursor(secret, 'test', ['6']);
    await refusedWith400Async(() => list(foreign));
  });

  it('builds the row-value condition for either direction', () => {
    expect(afterPosition(['e.created_at', 'e.id'], false)).toBe('(e.created_at, e.id) < (?, ?)');
    expect(afterPosition(['seq'], true)).toBe('(seq) > (?)');
  });
});
