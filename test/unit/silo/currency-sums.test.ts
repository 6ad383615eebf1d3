import { describe, expect, it } from 'vitest';
import { currencySums, type SumRow } from '../../../src-main/core/silo/sums.ts';

/** The desk's sums of a selection, per currency (silo/sums.ts). */
describe('currencySums', () => {
  it('sums exactly at the most decimals of each figure, credit notes negative, most entries first', () => {
    const rows: SumRow[] = [
      { currency: 'EUR', type: 'standard', net: '100.10', tax: '21.021', total: '121.121' },
      { currency: 'EUR', type: 'credit-note', net: '0.1', tax: '0.021', total: '0.121' },
      { currency: 'USD', type: 'standard', net: '5', tax: '0', total: '5' },
      { currency: null, type: 'standard', net: '9', tax: '9', total: '9' },
    ];
    expect(currencySums(rows)).toEqual([
      { currency: 'EUR', count: 2, net: '100.00', tax: '21.000', total: '121.000' },
      { currency: 'USD', count: 1, net: '5', tax: '0', total: '5' },
    ]);
  });

  it('sums a currency of 300,000 entries (spreading them into Math.max overflowed the stack)', () => {
    const rows: SumRow[] = Array.from({ length: 300_000 }, () => ({ currency: 'EUR', type: 'standard', net: '1.25', tax: '0.26', total: '1.51' }));
    expect(currencySums(rows)).toEqual([{ currency: 'EUR', count: 300_000, net: '375000.00', tax: '78000.00', total: '453000.00' }]);
  });
});
