import { v4 as uuidv4 } from 'uuid';
import { expect } from 'vitest';
import type { TestServer } from './harness.ts';

export interface SeriesFields {
  name?: string;
  description?: string;
  code?: string;
  prefix?: string;
  padding?: number;
  suffix?: string;
  start?: number;
  sig?: string;
}

/** Creates a series and checks it was made. */
export async function createSeries(t: TestServer, fields: SeriesFields = {}): Promise<any> {
  const id = uuidv4();
  const res = await t.call('PUT', `/sequence/v1/series/${id}`, { name: 'Sales', ...fields });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

export async function issue(t: TestServer, seriesId: string, body: Record<string, unknown> = {}, id = uuidv4()): Promise<any> {
  const res = await t.call('PUT', `/sequence/v1/series/${seriesId}/entries/${id}`, body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

/** A series with `n` entries issued one after another; answers the entries in order. */
export async function seriesWithEntries(t: TestServer, n: number, fields: SeriesFields = {}): Promise<{ series: any; entries: any[] }> {
  const series = await createSeries(t, fields);
  const entries: any[] = [];
  for (let i = 0; i < n; i++) entries.push(await issue(t, series.id, { meta: { n: String(i + 1) } }));
  return { series, entries };
}

/** Every entry of a series through the paged list, following next_cursor. */
export async function allEntries(t: TestServer, seriesId: string, limit = 100, ascending = true): Promise<any[]> {
  const out: any[] = [];
  let cursor: string | undefined;
  for (let pages = 0; pages < 1000; pages++) {
    const qs = `limit=${limit}&ascending=${ascending}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const res = await t.call('GET', `/sequence/v1/series/${seriesId}/entries?${qs}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.series_id).toBe(seriesId);
    expect(res.body.list.length).toBeLessThanOrEqual(limit);
    out.push(...res.body.list);
    cursor = res.body.next_cursor;
    if (!cursor) return out;
  }
  throw new Error('paging did not end');
}

export const verify = async (t: TestServer, seriesId: string) => {
  const res = await t.call('GET', `/sequence/v1/series/${seriesId}/verify`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { valid: boolean; count: number; broken?: { id: string; reason: string } };
};
