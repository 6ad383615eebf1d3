import { describe, expect, it } from 'vitest';
import { calculateDocument } from '../../../src-main/core/gobl/calc/index.ts';
import { regimeDef } from '../../../src-main/core/gobl/defs/index.ts';
import { BuildError } from '../../../src-main/core/gobl/engine/types.ts';
import type { BuildContext, Node } from '../../../src-main/core/gobl/engine/types.ts';

const NOW = new Date('2026-07-01T23:30:00Z'); // already 2 July in Madrid

function context(doc: Node, rootType = 'bill.Invoice'): BuildContext {
  return { schema: doc.$schema, rootType, regime: regimeDef(doc.$regime), addons: [], doc, now: NOW };
}

function calc(doc: Node, rootType = 'bill.Invoice'): Node {
  calculateDocument(doc, context(doc, rootType));
  return doc;
}

const VAT = (rate = 'general') => ({ cat: 'VAT', rate });

function line(price: string | undefined, quantity = '1', taxes: Node[] = [VAT()], extra: Node = {}): Node {
  return { quantity, item: { name: 'Thing', ...(price === undefined ? {} : { price }) }, taxes, ...extra };
}

function invoice(lines: Node[], extra: Node = {}): Node {
  return {
    $schema: 'https://gobl.org/draft-0/bill/invoice',
    $regime: 'ES',
    issue_date: '2024-06-01',
    currency: 'EUR',
    lines,
    ...extra,
  };
}

function faultPath(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    if (error instanceof BuildError) return error.faults[0]?.paths[0];
    throw error;
  }
  return undefined;
}

describe('calculateDocument: lines and totals', () => {
  it('indexes lines and works out sum, total, tax and payable', () => {
    const doc = calc(invoice([line('90.00', '20', [VAT()], { discounts: [{ percent: '10%' }] }), line('10', '1', [{ cat: 'VAT', key: 'zero', percent: '0%' }])]));
    expect(doc.lines.map((l: Node) => [l.i, l.sum, l.total])).toEqual([[1, '1800.00', '1620.00'], [2, '10.00', '10.00']]);
    expect(doc.lines[0].discounts[0].amount).toBe('180.00');
    expect(doc.lines[1].item.price).toBe('10.00'); // raised to the currency's decimals
    expect(doc.lines[0].taxes[0].percent).toBe('21.0%'); // from the regime's rate table on the issue date
    expect(doc.totals).toEqual({
      sum: '1630.00',
      total: '1630.00',
      taxes: {
        categories: [{
          code: 'VAT',
          rates: [
            { key: 'standard', base: '1620.00', percent: '21.0%', amount: '340.20' },
            { key: 'zero', base: '10.00', percent: '0%', amount: '0.00' },
          ],
          amount: '340.20',
        }],
        sum: '340.20',
      },
      tax: '340.20',
      total_with_tax: '1970.20',
      payable: '1970.20',
    });
  });

  it('keeps extra decimals until the end under the precise rule', () => {
    const doc = calc(invoice([line('0.125'), line('0.125'), line('0.125')]));
    expect(doc.lines[0].sum).toBe('0.125'); // no finer than the price
    expect(doc.totals.sum).toBe('0.38');
    expect(doc.totals.taxes.categories[0].rates[0].base).toBe('0.38');
    expect(doc.totals.tax).toBe('0.08'); // 0.3750 × 21% = 0.0788
    expect(doc.totals.total_with_tax).toBe('0.45'); // 0.3750 + 0.0788, rounded once
  });

  it('rounds each line to the currency under the currency rule (also by its legacy name)', () => {
    for (const rounding of ['currency', 'round-then-sum']) {
      const doc = calc(invoice([line('0.125'), line('0.125'), line('0.125')], { tax: { rounding } }));
      expect(doc.lines[0].sum).toBe('0.13');
      expect(doc.totals.sum).toBe('0.39');
      expect(doc.totals.tax).toBe('0.08');
      expect(doc.totals.total_with_tax).toBe('0.47');
    }
  });

  it('uses the currency rule by default in Greece', () => {
    const doc = calc({ ...invoice([line('0.125'), line('0.125'), line('0.125')]), $regime: 'EL' });
    expect(doc.totals.sum).toBe('0.39');
    expect(doc.totals.tax).toBe('0.09'); // 0.39 × 24%
  });

  it('keeps a price with more decimals than the currency in the line figures', () => {
    const doc = calc(invoice([line('1.2345', '3')]));
    expect(doc.lines[0].sum).toBe('3.7035');
    expect(doc.totals.sum).toBe('3.70');
  });

  it('takes included tax out of the prices (prices_include)', () => {
    const doc = calc(invoice([line('10.00')], { tax: { prices_include: 'VAT' } }));
    expect(doc.totals).toMatchObject({
      sum: '10.00', tax_included: '1.74', total: '8.26', tax: '1.74', total_with_tax: '10.00', payable: '10.00',
    });
    expect(doc.totals.taxes.categories[0].rates[0].base).toBe('8.26');
  });

  it('refuses prices that include a retained tax', () => {
    const doc = invoice([line('10.00', '1', [VAT(), { cat: 'IRPF', rate: 'pro' }])], { tax: { prices_include: 'IRPF' } });
    expect(faultPath(() => calc(doc))).toBe('$.tax.prices_include');
  });

  it('retains withheld taxes from the payable amount', () => {
    const doc = calc(invoice([line('100.00', '1', [VAT(), { cat: 'IRPF', rate: 'pro' }])]));
    expect(doc.totals.taxes.categories[1]).toEqual({
      code: 'IRPF', retained: true, rates: [{ base: '100.00', percent: '15.0%', amount: '15.00' }], amount: '15.00',
    });
    expect(doc.totals).toMatchObject({ tax: '21.00', total_with_tax: '121.00', retained_tax: '15.00', payable: '106.00' });
    expect(doc.totals.taxes.retained).toBe('15.00');
  });

  it('adds equivalence surcharges to the tax sum', () => {
    const doc = calc(invoice([line('100.00', '1', [VAT('general+eqs')])]));
    expect(doc.lines[0].taxes[0]).toMatchObject({ percent: '21.0%', surcharge: '5.2%' });
    expect(doc.totals.taxes.categories[0]).toEqual({
      code: 'VAT',
      rates: [{ key: 'standard', base: '100.00', percent: '21.0%', surcharge: { percent: '5.2%', amount: '5.20' }, amount: '21.00' }],
      amount: '21.00',
      surcharge: '5.20',
    });
    expect(doc.totals.tax).toBe('26.20');
  });

  it('drops percents for keys that have none, and groups rates by percent, not key', () => {
    const doc = calc(invoice([
      line('50.00', '1', [{ cat: 'VAT', key: 'exempt', percent: '21%' }]),
      line('50.00', '1', [{ cat: 'VAT', key: 'export' }]),
    ]));
    expect(doc.lines[0].taxes[0].percent).toBeUndefined();
    expect(doc.totals.taxes.categories[0].rates).toEqual([{ key: 'exempt', base: '100.00', amount: '0.00' }]);
  });

  it('picks rate values by date and ext', () => {
    const pt = (ext?: Node) => calc({
      ...invoice([line('100.00', '1', [{ cat: 'VAT', rate: 'general', ...(ext ? { ext } : {}) }])]), $regime: 'PT',
    });
    expect(pt().lines[0].taxes[0].percent).toBe('23.0%');
    expect(pt({ 'pt-region': 'PT-AC' }).lines[0].taxes[0].percent).toBe('16.0%');
    const old = calc(invoice([line('100.00')], { issue_date: '2011-01-01' }));
    expect(old.lines[0].taxes[0].percent).toBe('18.0%');
    const valued = calc(invoice([line('100.00')], { issue_date: '2024-01-01', value_date: '2011-01-01' }));
    expect(valued.lines[0].taxes[0].percent).toBe('18.0%');
  });

  it('refuses a rate the regime does not know, or not on that date, at the combo path', () => {
    expect(faultPath(() => calc(invoice([line('1.00'), line('1.00', '1', [VAT('bogus')])])))).toBe('$.lines[1].taxes[0].rate');
    expect(faultPath(() => calc(invoice([line('1.00')], { issue_date: '1990-01-01' })))).toBe('$.lines[0].taxes[0].rate');
    expect(faultPath(() => calc(invoice([line('1.00', '1', [{ cat: 'XYZ', percent: '1%' }])])))).toBe('$.lines[0].taxes[0].cat');
  });

  it('refuses an amount that is not a GOBL number, at its path', () => {
    expect(faultPath(() => calc(invoice([line('1e5')])))).toBe('$.lines[0].item.price');
  });

  it('leaves lines without a price out of everything', () => {
    const doc = calc(invoice([line('10.00'), line(undefined, '2', [VAT()], { sum: '1.00', total: '1.00' })]));
    expect(doc.lines[1].i).toBe(2);
    expect(doc.lines[1].sum).toBeUndefined();
    expect(doc.lines[1].total).toBeUndefined();
    expect(doc.totals.sum).toBe('10.00');
  });

  it('drops the totals of a document with nothing priced', () => {
    const doc = calc({ ...invoice([line(undefined)]), $schema: 'https://gobl.org/draft-0/bill/order', totals: { sum: '1.00' } }, 'bill.Order');
    expect(doc.totals).toBeUndefined();
  });
});

describe('calculateDocument: adjustments', () => {
  it('applies line discounts with their own base and line charges from a rate', () => {
    const doc = calc(invoice([line('100.00', '2', [VAT()], {
      discounts: [{ percent: '10%', base: '50' }, { amount: '1' }],
      charges: [{ rate: '0.50', quantity: '3' }, { rate: '0.25' }],
    })]));
    const l = doc.lines[0];
    expect(l.discounts).toEqual([{ percent: '10%', base: '50.00', amount: '5.00' }, { amount: '1.00' }]);
    expect(l.charges).toEqual([{ rate: '0.50', quantity: '3', amount: '1.50' }, { rate: '0.25', amount: '0.50' }]);
    expect(l.total).toBe('196.00'); // 200 − 5 − 1 + 1.50 + 0.50
  });

  it('works out document discounts and charges, indexed, with their sums', () => {
    const doc = calc(invoice([line('200.00')], {
      discounts: [{ percent: '10%', taxes: [VAT()] }],
      charges: [{ amount: '5', taxes: [VAT()] }, { percent: '1.5%', base: '100.00' }],
    }));
    expect(doc.discounts[0]).toMatchObject({ i: 1, amount: '20.00' });
    expect(doc.charges.map((c: Node) => [c.i, c.amount])).toEqual([[1, '5.00'], [2, '1.50']]);
    expect(doc.totals).toMatchObject({ sum: '200.00', discount: '20.00', charge: '6.50', total: '186.50' });
    expect(doc.totals.taxes.categories[0].rates[0].base).toBe('185.00'); // 200 − 20 + 5 (the last charge has no taxes)
  });
});

describe('calculateDocument: breakdown and currencies', () => {
  it('prices a line from its breakdown', () => {
    const doc = calc(invoice([{
      quantity: '2',
      item: { name: 'Kit', price: '1.00', currency: 'USD', alt_prices: [{ currency: 'GBP', value: '1.00' }] },
      breakdown: [
        { quantity: '1', item: { name: 'A', price: '10.00' } },
        { quantity: '2', item: { name: 'B', price: '2.505' } },
      ],
      taxes: [VAT()],
    }]));
    const l = doc.lines[0];
    expect(l.item).toEqual({ name: 'Kit', price: '15.010', currency: 'EUR' });
    expect(l.breakdown.map((s: Node) => [s.i, s.sum, s.total])).toEqual([[1, '10.000', '10.000'], [2, '5.010', '5.010']]);
    expect([l.sum, l.total]).toEqual(['30.020', '30.020']);
  });

  it('converts item prices with alt_prices, then exchange rates, keeping the original', () => {
    const rates = [{ from: 'USD', to: 'EUR', amount: '0.875' }];
    const doc = calc(invoice([
      line('10.00', '1', [VAT()], { item: { name: 'A', price: '10.00', currency: 'USD', alt_prices: [{ currency: 'EUR', value: '9' }] } }),
      line('10', '1', [VAT()], { item: { name: 'B', price: '10', currency: 'USD' } }),
    ], { exchange_rates: rates }));
    expect(doc.lines[0].item).toEqual({ name: 'A', price: '9.00', currency: 'EUR', alt_prices: [{ currency: 'USD', value: '10.00' }] });
    expect(doc.lines[1].item).toEqual({ name: 'B', price: '8.75', currency: 'EUR', alt_prices: [{ currency: 'USD', value: '10.00' }] });
    const missing = invoice([line('1', '1', [VAT()], { item: { name: 'C', price: '1', currency: 'GBP' } })]);
    expect(faultPath(() => calc(missing))).toBe('$.lines[0].item.currency');
  });
});

describe('calculateDocument: document rules', () => {
  it('fills in the issue date (regime time zone), a zero issue time and the currency', () => {
    const doc = calc({ $schema: 'https://gobl.org/draft-0/bill/invoice', $regime: 'ES', lines: [line('1.00')] });
    expect(doc.issue_date).toBe('2026-07-02');
    expect(doc.currency).toBe('EUR');
    const timed = calc({ ...invoice([line('1.00')]), issue_time: '00:00:00', currency: 'ZZZ' });
    expect([timed.issue_date, timed.issue_time, timed.currency]).toEqual(['2026-07-02', '01:30:00', 'EUR']);
    const noRegime = { ...invoice([line('1.00')]), $regime: undefined, currency: undefined };
    expect(faultPath(() => calc(noRegime))).toBe('$.currency');
  });

  it('calculates nothing for a bypass document', () => {
    const totals = { sum: '1.00', total: '999.00', tax: '0.00', total_with_tax: '999.00', payable: '999.00' };
    const doc = calc(invoice([line('10.00')], { $tags: ['bypass'], totals: structuredClone(totals) }));
    expect(doc.totals).toEqual(totals);
    expect(doc.lines[0].sum).toBeUndefined();
  });

  it('taxes at the customer\'s rates with customer-rates', () => {
    const doc = calc(invoice([line('100.00')], { $tags: ['customer-rates'], customer: { name: 'K', tax_id: { country: 'DE' } } }));
    expect(doc.lines[0].taxes[0]).toMatchObject({ country: 'DE', percent: '19%' });
    expect(doc.totals.taxes.categories[0].rates[0]).toMatchObject({ country: 'DE', percent: '19%', amount: '19.00' });
  });

  it('drops a combo country equal to the regime\'s', () => {
    const doc = calc(invoice([line('100.00', '1', [{ cat: 'VAT', rate: 'general', country: 'ES' }])]));
    expect(doc.lines[0].taxes[0].country).toBeUndefined();
  });

  it('recalculates preceding taxes in the reference currency', () => {
    const doc = calc(invoice([line('1.00')], {
      preceding: [
        { code: 'A', tax: { categories: [{ code: 'VAT', rates: [{ key: 'standard', base: '100', percent: '21.0%' }] }] } },
        { code: 'B', currency: 'JPY', tax: { categories: [{ code: 'VAT', rates: [{ base: '1000', percent: '10%' }] }] } },
      ],
    }));
    expect(doc.preceding[0].tax).toEqual({
      categories: [{ code: 'VAT', rates: [{ key: 'standard', base: '100.00', percent: '21.0%', amount: '21.00' }], amount: '21.00' }],
      sum: '21.00',
    });
    expect(doc.preceding[1].tax.sum).toBe('100');
  });

  it('keeps a stated rounding adjustment and adds it to payable', () => {
    const doc = calc(invoice([line('10.00')], { totals: { rounding: '0.01', sum: '5.00' } }));
    expect(doc.totals).toMatchObject({ total_with_tax: '12.10', rounding: '0.01', payable: '12.11' });
  });

  it('settles percent advances and due dates from the rounded payable', () => {
    const doc = calc(invoice([line('100.00')], {
      payment: {
        advances: [{ description: 'Deposit', percent: '50%' }, { description: 'Cash', amount: '10' }],
        terms: { due_dates: [{ date: '2024-07-01', percent: '40%' }, { date: '2024-08-01', percent: '0%', amount: '5' }] },
      },
    }));
    expect(doc.payment.advances.map((a: Node) => a.amount)).toEqual(['60.50', '10.00']);
    expect(doc.totals).toMatchObject({ payable: '121.00', advance: '70.50', due: '50.50' });
    expect(doc.payment.terms.due_dates.map((d: Node) => d.amount)).toEqual(['48.40', '5.00']);
  });

  it('leaves other document types alone', () => {
    const doc = { $schema: 'https://gobl.org/draft-0/org/party', name: 'X' };
    calculateDocument(doc, { ...context(doc), rootType: 'org.Party' });
    expect(doc).toEqual({ $schema: 'https://gobl.org/draft-0/org/party', name: 'X' });
  });
});

describe('calculateDocument: payments', () => {
  const tax = () => ({ categories: [{ code: 'VAT', rates: [{ key: 'standard', base: '100.00', percent: '21.0%' }] }] });

  function payment(lines: Node[], extra: Node = {}): Node {
    return { $schema: 'https://gobl.org/draft-0/bill/payment', $regime: 'ES', issue_date: '2025-01-28', lines, ...extra };
  }

  it('scales the paid document\'s tax to the amount paid and works out what is due', () => {
    const doc = calc(payment([{ document: { code: 'F1', tax: tax(), payable: '121.00' }, amount: '60.50' }], {
      methods: [{ key: 'credit-transfer' }],
    }), 'bill.Payment');
    const l = doc.lines[0];
    expect(doc.currency).toBe('EUR');
    expect([l.i, l.payable, l.due]).toEqual([1, '121.00', '60.50']);
    expect(l.document.tax.sum).toBe('21.00');
    expect(l.tax).toEqual({
      categories: [{ code: 'VAT', rates: [{ key: 'standard', base: '50.00', percent: '21.0%', amount: '10.50' }], amount: '10.50' }],
      sum: '10.50',
    });
    expect(doc.total).toBe('60.50');
    expect(doc.methods[0].amount).toBe('60.50');
  });

  it('converts a foreign document with the payment\'s exchange rates, and subtracts refunds', () => {
    const doc = calc(payment([
      { document: { code: 'F1', currency: 'USD', payable: '100.00' }, advances: '10', amount: '50.00' },
      { refund: true, amount: '5.00' },
    ], { exchange_rates: [{ from: 'USD', to: 'EUR', amount: '0.9' }], methods: [{ key: 'cash', percent: '50%' }, { key: 'card' }] }), 'bill.Payment');
    expect(doc.lines[0]).toMatchObject({ payable: '90.00', advances: '10', due: '30.00' });
    expect(doc.total).toBe('45.00');
    expect(doc.methods[0].amount).toBe('22.50');
    expect(doc.methods[1].amount).toBeUndefined();
    const missing = payment([{ document: { code: 'F1', currency: 'USD' }, amount: '1' }]);
    expect(faultPath(() => calc(missing, 'bill.Payment'))).toBe('$.lines[0].document.currency');
  });
});
