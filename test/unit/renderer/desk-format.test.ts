import { describe, expect, it } from 'vitest';
import { negate, sumDecimals } from '../../../src-renderer/src/format/decimal.ts';
import { hitRanges, searchWords } from '../../../src-renderer/src/format/highlight.ts';
import { signedAmount, sumsByCurrency } from '../../../src-renderer/src/screens/entries/amounts.ts';

const marked = (text: string, query: string) => hitRanges(text, searchWords(query)).map(([a, b]) => text.slice(a, b));

describe('exact decimals for the sum row', () => {
  it('adds decimal strings at the largest precision they have, never through a float', () => {
    expect(sumDecimals(['0.10', '0.20'])).toBe('0.30');
    expect(sumDecimals(['1970.20', '-484.00', '0.05'])).toBe('1486.25');
    expect(sumDecimals(['1.5', '2.25', '3'])).toBe('6.75');
    expect(sumDecimals(['99999999999999999.99', '0.01'])).toBe('100000000000000000.00');
    expect(sumDecimals(['-1.00', '0.40'])).toBe('-0.60');
    expect(sumDecimals([undefined, 'n/a', ''])).toBe('0');
  });

  it('negates a credit note’s amounts, leaving zero unsigned', () => {
    expect(negate('12.50')).toBe('-12.50');
    expect(negate('-3')).toBe('3');
    expect(negate('0.00')).toBe('0.00');
    expect(negate('-0.00')).toBe('0.00');
    expect(negate('oops')).toBe('oops');
  });

  it('shows and sums credit notes negative, per currency', () => {
    const rows = [
      // Snippets as the hosted service shapes them: GOBL's `total` is before tax, `payable` what is due.
      { snippet: { type: 'standard', currency: 'EUR', total: '100.00', tax: '21.00', payable: '121.00' } },
      { snippet: { type: 'credit-note', currency: 'EUR', total: '40.00', tax: '8.40', payable: '48.40' } },
      { snippet: { type: 'standard', currency: 'USD', total: '10.5', total_with_tax: '11.00' } },
      { snippet: { title: 'a scan' } },
    ];
    expect(signedAmount(rows[1], 'total')).toBe('-48.40');
    expect(signedAmount(rows[0], 'total')).toBe('121.00');
    expect(signedAmount(rows[2], 'tax')).toBeUndefined();
    expect(sumsByCurrency(rows)).toEqual([
      { currency: 'EUR', count: 2, net: '60.00', tax: '12.60', total: '72.60' },
      { currency: 'USD', count: 1, net: '10.5', tax: '0', total: '11.00' },
    ]);
  });
});

describe('search hits', () => {
  it('marks words where the search matched them: at word starts, without regard to case or accents', () => {
    expect(marked('Exportadora Sur', 'export')).toEqual(['Export']);
    expect(marked('Café Élan', 'cafe elan')).toEqual(['Café', 'Élan']);
    expect(marked('EXPORT-0010', 'EXPORT-001')).toEqual(['EXPORT', '001']);
    expect(marked('Reexport', 'export')).toEqual([]);
    expect(marked('Ελληνικά Τρόφιμα', 'τροφ')).toEqual(['Τρόφ']);
    expect(marked('anything', '"*(')).toEqual([]);
  });

  it('merges overlapping hits and keeps ranges on the original text', () => {
    expect(hitRanges('Sample Consumer', searchWords('sam sample'))).toEqual([[0, 6]]);
    expect(marked('x ﬁnance', 'fin')).toEqual(['ﬁn']);
  });
});
