import { describe, expect, it } from 'vitest';
import { choosePlan, type Walk } from '../../../src-main/core/silo/filter-plan.ts';

const byTotal: Walk[] = [{ index: 'entries_sort_total' }];
const MILLION = 1_000_000;

describe('choosePlan: drive from the narrowest filter or walk the order', () => {
  it('drives from a filter that keeps few of many, and walks when it keeps many', () => {
    expect(choosePlan(MILLION, { tag: 40 }, byTotal, 21)).toEqual({ drive: 'tag' });
    expect(choosePlan(MILLION, { tag: 0 }, byTotal, 21)).toEqual({ drive: 'tag' });
    expect(choosePlan(MILLION, { folder: 300_000 }, byTotal, 21)).toEqual({ walk: byTotal[0] });
  });

  it('crosses where both read about as many rows: near √(take × n)', () => {
    // 21 × 1,000,000 / m = m at m ≈ 4,583
    expect(choosePlan(MILLION, { state: 4_000 }, byTotal, 21)).toEqual({ drive: 'state' });
    expect(choosePlan(MILLION, { state: 5_200 }, byTotal, 21)).toEqual({ walk: byTotal[0] });
  });

  it('takes the narrowest of several filters, and counts their overlap as independent', () => {
    expect(choosePlan(MILLION, { folder: 900_000, tag: 30, state: 2_000 }, byTotal, 21)).toEqual({ drive: 'tag' });
    // Each keeps a tenth, together a hundredth: 10,000 matches, a walk of about 2,100 rows beats driving 100,000.
    expect(choosePlan(MILLION, { folder: 100_000, tag: 100_000 }, byTotal, 21)).toEqual({ walk: byTotal[0] });
    // Each keeps 1 %, together 0.01 %: 100 matches; a walk would read 210,000 rows, the tag's 10,000 are fewer.
    expect(choosePlan(MILLION, { folder: 10_000, tag: 10_000 }, byTotal, 21)).toEqual({ drive: 'folder' });
  });

  it('never drives from a filter too broad to size (undefined: past the probe), and leaves it out of the estimate', () => {
    expect(choosePlan(MILLION, { state: undefined }, byTotal, 21)).toEqual({ walk: byTotal[0] });
    expect(choosePlan(MILLION, { state: undefined, dates: undefined }, byTotal, 21)).toEqual({ walk: byTotal[0] });
    expect(choosePlan(MILLION, { state: undefined, tag: 12 }, byTotal, 21)).toEqual({ drive: 'tag' });
  });

  it('walks an index that holds the filter’s rows in order (a folder’s, newest first) when that is the cheaper walk', () => {
    const newest: Walk[] = [{ index: 'entries_company_created' }, { index: 'entries_company_folder_created', within: 'folder' }];
    expect(choosePlan(MILLION, { folder: 50_000 }, newest, 21)).toEqual({ walk: newest[1] });
    // A folder of 50,000 and a tag of 2,000: the tag's rows (2,000) against a walk of the folder (about 10,500).
    expect(choosePlan(MILLION, { folder: 50_000, tag: 2_000 }, newest, 21)).toEqual({ drive: 'tag' });
  });

  it('an empty company walks (nothing to read either way)', () => {
    expect(choosePlan(0, {}, byTotal, 21)).toEqual({ walk: byTotal[0] });
  });
});
