import { describe, expect, it } from 'vitest';
import { digitRunsLed, numberKey } from '../../../src-main/core/silo/sort-keys.ts';

/** The keys before migration 0034: digit runs padded with zeros to 20 digits. */
const padded = (n: string) => n.normalize('NFKC').toLowerCase().slice(0, 120).replace(/\d+/g, (run) => (run.length >= 20 ? run : run.padStart(20, '0')));
const byBytes = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

describe('a number key', () => {
  it('sorts numbers naturally: inv-2 before inv-10, runs against letters and marks as digits do', () => {
    const numbers = ['INV-10', 'inv-2', 'INV-2A', 'inv-', 'inv-0003', 'inv-1.5', 'inv-1-5', 'inv 9', 'invoice-1', 'A2026-99', 'A2026-100', 'a999-1', 'a10000-1', 'x/7', 'x:7', 'x~7', 'Ño-3', '42'];
    const sorted = [...numbers].sort((a, b) => byBytes(numberKey(a)!, numberKey(b)!));
    // The order the padded keys gave, which is natural order: what the list showed before.
    expect(sorted).toEqual([...numbers].sort((a, b) => byBytes(padded(a), padded(b))));
    expect(sorted.indexOf('inv-2')).toBeLessThan(sorted.indexOf('INV-10'));
    expect(sorted.indexOf('A2026-99')).toBeLessThan(sorted.indexOf('A2026-100'));
    expect(sorted.indexOf('a999-1')).toBeLessThan(sorted.indexOf('a10000-1'));
  });

  it('is the same key for the same number however written, and none for no number', () => {
    expect(numberKey('INV-007')).toBe(numberKey('inv-7'));
    expect(numberKey('ＩＮＶ-７')).toBe(numberKey('inv-7'));
    expect(numberKey('inv-0')).toBe('inv-010');
    expect(numberKey(undefined)).toBeNull();
    expect(numberKey('')).toBeNull();
  });

  it('takes half the bytes of a padded one, and is what a padded key becomes (the migration)', () => {
    for (const n of ['SAMPLE-F-0701', 'FV-2026/000123', 'A-1-2-3', 'Año·7', '12345678901234567890123']) {
      expect(digitRunsLed(padded(n))).toBe(numberKey(n));
    }
    expect(numberKey('sample-f-701')!.length * 2).toBeLessThan(padded('sample-f-701').length);
  });

  it('keeps the order of runs longer than 20 digits, and of 99 and more', () => {
    const long = ['9'.repeat(25), '1' + '0'.repeat(25), '1' + '0'.repeat(24)];
    expect([...long].sort((a, b) => byBytes(numberKey(a)!, numberKey(b)!))).toEqual(['1' + '0'.repeat(24), '9'.repeat(25), '1' + '0'.repeat(25)]);
    expect(numberKey('9'.repeat(110))).toBe('99' + '9'.repeat(110));
  });
});
