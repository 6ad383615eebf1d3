import { expect } from 'vitest';
import type { TestServer } from './harness.ts';

export { invoice, type Variant } from './desk-list-docs.ts';

/** Stores documents in one import call; answers the new ids in order. */
export async function importAll(t: TestServer, docs: unknown[], token?: string): Promise<string[]> {
  const headers = token ? { authorization: `Bearer ${token}` } : undefined;
  const res = await t.call('POST', '/silo/v1/import', { entries: docs.map((data) => ({ data })) }, headers);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body.failed, JSON.stringify(res.body.results.filter((r: any) => r.status === 'error').slice(0, 2))).toBe(0);
  return res.body.results.map((r: any) => r.id);
}

/** Every entry of a list, page by page, following next_cursor (from `start`, when given). */
export async function allPages(t: TestServer, query: string, limit = 10, start = ''): Promise<any[]> {
  const all: any[] = [];
  let cursor = start;
  for (let pages = 0; pages < 1000; pages++) {
    const res = await t.call('GET', `/silo/v1/entries?${query}&limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    all.push(...res.body.list);
    if (!res.body.next_cursor) return all;
    cursor = res.body.next_cursor;
  }
  throw new Error('too many pages');
}

/**
 * The list's figure of an entry (net, tax or total) from its snippet as the hosted service
 * shapes it (net is GOBL's `total`, total what is `payable`), signed as the list reads it
 * (for comparing in tests only).
 */
export const signed = (e: any, field: string): number | null => {
  const value = field === 'net' ? e.snippet.total : field === 'total' ? (e.snippet.payable ?? e.snippet.total_with_tax) : e.snippet[field];
  if (value === undefined) return null;
  return Number(value) * (e.snippet.type === 'credit-note' ? -1 : 1);
};
