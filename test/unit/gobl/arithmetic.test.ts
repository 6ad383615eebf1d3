import { describe, expect, it } from 'vitest';
import { checkInvoiceArithmetic } from '../../../src-main/core/gobl/arithmetic/index.ts';
import { INVOICE_SCHEMA } from '../../../src-main/core/gobl/doc-types.ts';
import { loadEnvelope, loadEnvelopes } from '../../fixtures/gobl/load.ts';

const fixtures = loadEnvelopes();
const invoices = fixtures.filter((f) => f.envelope.doc.$schema === INVOICE_SCHEMA);
const others = fixtures.filter((f) => f.envelope.doc.$schema !== INVOICE_SCHEMA);

// The faults of a fixture invoice after `mutate` has broken a copy of it.
function faultsAfter(file: string, mutate: (doc: any) => void) {
  const { doc } = loadEnvelope(file);
  mutate(doc);
  return checkInvoiceArithmetic(doc);
}

function fault(code: string, path: string, message: string) {
  return { code, path, message, provider: 'gobl.validate' };
}

const VAT_21 = [{ cat: 'VAT', key: 'standard', percent: '21%' }];

// A bare invoice: only what the arithmetic reads.
function invoice(parts: Record<string, unknown>): Record<string, any> {
  return { $schema: INVOICE_SCHEMA, $regime: 'ES', currency: 'EUR', ...parts };
}

function vatTotals(base: string, amount: string): Record<string, unknown> {
  return {
    categories: [{ code: 'VAT', rates: [{ key: 'standard', base, percent: '21%', amount }], amount }],
    sum: amount,
  };
}

describe('checkInvoiceArithmetic on the GOBL fixtures', () => {
  it('covers all 61 invoices', () => {
    expect(invoices).toHaveLength(61);
  });

  it.each(invoices.map((f) => [f.file, f.envelope.doc]))('%s adds up', (_file, doc) => {
    expect(checkInvoiceArithmetic(doc)).toEqual([]);
  });

  it.each(others.map((f) => [f.file, f.envelope.doc]))('%s (not an invoice) has nothing to report', (_file, doc) => {
    expect(checkInvoiceArithmetic(doc)).toEqual([]);
  });
});

describe('checkInvoiceArithmetic on broken copies', () => {
  const FREELANCE = 'es-invoice-es-es-freelance.json';

  it('reports a changed quantity once, at the line sum it no longer gives', () => {
    expect(faultsAfter(FREELANCE, (d) => (d.lines[0].quantity = '21'))).toEqual([
      fault('line-sum', '$.doc.lines[0].sum', 'lines[0].sum is 1800.00 but quantity 21 × price 90.00 = 1890.00'),
    ]);
  });

  it('reports a changed line sum', () => {
    expect(faultsAfter(FREELANCE, (d) => (d.lines[0].sum = '1900.00'))).toEqual([
      fault('line-sum', '$.doc.lines[0].sum', 'lines[0].sum is 1900.00 but quantity 20 × price 90.00 = 1800.00'),
    ]);
  });

  it('reports a changed price', () => {
    expect(faultsAfter(FREELANCE, (d) => (d.lines[0].item.price = '95.00'))).toEqual([
      fault('line-sum', '$.doc.lines[0].sum', 'lines[0].sum is 1800.00 but quantity 20 × price 95.00 = 1900.00'),
    ]);
  });

  it('reports a line discount that is not its percent of the sum', () => {
    expect(faultsAfter(FREELANCE, (d) => (d.lines[0].discounts[0].amount = '190.00'))).toEqual([
      fault('discount-amount', '$.doc.lines[0].discounts[0].amount', 'lines[0].discounts[0].amount is 190.00 but 10% of sum 1800.00 = 180.00'),
    ]);
  });

  it('reports a line total that is not sum − discounts', () => {
    expect(faultsAfter(FREELANCE, (d) => (d.lines[0].total = '1720.00'))).toEqual([
      fault('line-total', '$.doc.lines[0].total', 'lines[0].total is 1720.00 but sum 1800.00 − discount 180.00 = 1620.00'),
    ]);
  });

  it('reports a fixed line discount that does not match the line total', () => {
    const faults = faultsAfter('dk-invoice-peppol.json', (d) => (d.lines[0].discounts[0].amount = '1500.01'));
    expect(faults.map((f) => [f.code, f.path])).toEqual([['line-total', '$.doc.lines[0].total']]);
  });

  it('reports totals.sum that is not the sum of line totals', () => {
    expect(faultsAfter('es-invoice-es-es.json', (d) => (d.totals.sum = '1600.00'))).toEqual([
      fault('sum', '$.doc.totals.sum', 'totals.sum is 1600.00 but the line totals add up to 1630.00'),
    ]);
  });

  it('reports a tax base', () => {
    expect(faultsAfter(FREELANCE, (d) => (d.totals.taxes.categories[0].rates[0].base = '1700.00'))).toEqual([
      fault('tax-base', '$.doc.totals.taxes.categories[0].rates[0].base',
        'totals.taxes.categories[0].rates[0].base is 1700.00 but the amounts taxed at VAT standard 21.0% add up to 1620.00'),
    ]);
  });

  it('reports a tax rate amount', () => {
    expect(faultsAfter(FREELANCE, (d) => (d.totals.taxes.categories[0].rates[0].amount = '340.21'))).toEqual([
      fault('tax-amount', '$.doc.totals.taxes.categories[0].rates[0].amount',
        'totals.taxes.categories[0].rates[0].amount is 340.21 but 21.0% of base 1620.00 = 340.20'),
    ]);
  });

  it('reports a category amount and the tax sum', () => {
    expect(faultsAfter(FREELANCE, (d) => (d.totals.taxes.categories[0].amount = '340.00'))).toEqual([
      fault('tax-category-amount', '$.doc.totals.taxes.categories[0].amount',
        'totals.taxes.categories[0].amount is 340.00 but the VAT rate amounts add up to 340.20'),
    ]);
    expect(faultsAfter(FREELANCE, (d) => (d.totals.taxes.sum = '340.00'))).toEqual([
      fault('tax-sum', '$.doc.totals.taxes.sum', 'totals.taxes.sum is 340.00 but the amounts of the categories that are not retained add up to 340.20'),
    ]);
  });

  it('reports total_with_tax and payable', () => {
    expect(faultsAfter(FREELANCE, (d) => (d.totals.total_with_tax = '1960.00'))).toEqual([
      fault('total-with-tax', '$.doc.totals.total_with_tax', 'totals.total_with_tax is 1960.00 but total 1620.00 + tax 340.20 = 1960.20'),
    ]);
    expect(faultsAfter(FREELANCE, (d) => (d.totals.payable = '1960.20'))).toEqual([
      fault('payable', '$.doc.totals.payable', 'totals.payable is 1960.20 but total with tax 1960.20 − retained 243.00 = 1717.20'),
    ]);
  });

  it('reports a retained tax (IRPF) wherever it is wrong', () => {
    expect(faultsAfter(FREELANCE, (d) => (d.totals.taxes.categories[1].rates[0].amount = '250.00'))).toEqual([
      fault('tax-amount', '$.doc.totals.taxes.categories[1].rates[0].amount',
        'totals.taxes.categories[1].rates[0].amount is 250.00 but 15.0% of base 1620.00 = 243.00'),
    ]);
    expect(faultsAfter(FREELANCE, (d) => (d.totals.taxes.retained = '250.00'))).toEqual([
      fault('tax-retained', '$.doc.totals.taxes.retained', 'totals.taxes.retained is 250.00 but the retained category amounts add up to 243.00'),
    ]);
    expect(faultsAfter(FREELANCE, (d) => (d.totals.retained_tax = '250.00'))).toEqual([
      fault('retained-tax', '$.doc.totals.retained_tax', 'totals.retained_tax is 250.00 but the retained taxes add up to 243.00'),
    ]);
  });

  it('reports a line tax percent that its rate total does not state', () => {
    expect(faultsAfter(FREELANCE, (d) => (d.lines[0].taxes[0].percent = '10%'))).toEqual([
      fault('tax-percent', '$.doc.totals.taxes.categories[0].rates[0].percent',
        'totals.taxes.categories[0].rates[0].percent is 21.0% but lines, discounts or charges apply 10% to 1620.00 (VAT standard 10%)'),
    ]);
  });

  it('reports tax categories and rates that are missing or that nothing applies', () => {
    const missing = faultsAfter(FREELANCE, (d) => d.totals.taxes.categories.pop());
    expect(missing.map((f) => [f.code, f.path])).toEqual([['tax-category-missing', '$.doc.totals.taxes.categories']]);
    const extra = faultsAfter(FREELANCE, (d) => d.lines[0].taxes.pop());
    expect(extra.map((f) => [f.code, f.path])).toContainEqual(['tax-category-unexpected', '$.doc.totals.taxes.categories[1]']);
  });

  it('reports the equivalence surcharge of a rate', () => {
    const faults = faultsAfter('es-invoice-es-es-tbai-equivalence.json', (d) => {
      const rate = d.totals.taxes.categories[0].rates[0];
      rate.surcharge.amount = '0.01';
    });
    expect(faults.map((f) => [f.code, f.path])).toEqual([['tax-surcharge', '$.doc.totals.taxes.categories[0].rates[0].surcharge.amount']]);
  });

  it('reports the tax included in prices', () => {
    expect(faultsAfter('es-invoice-es-es-vateqs-provider.json', (d) => (d.totals.tax_included = '19.10'))).toEqual([
      fault('tax-included', '$.doc.totals.tax_included', 'totals.tax_included is 19.10 but the VAT category amount is 19.09'),
    ]);
  });

  it('reports a document charge that is not its percent of the line sum', () => {
    expect(faultsAfter('it-b2b-fund-contribution.json', (d) => (d.charges[0].amount = '65.00'))).toEqual([
      fault('charge-amount', '$.doc.charges[0].amount', 'charges[0].amount is 65.00 but 4% of the line sum 1600.00 = 64.00'),
    ]);
  });

  it('reports advances and the amount due', () => {
    const PREPAYMENT = 'pl-invoice-prepayment.json';
    expect(faultsAfter(PREPAYMENT, (d) => (d.payment.advances[0].amount = '3000.00'))).toEqual([
      fault('advance-amount', '$.doc.payment.advances[0].amount', 'payment.advances[0].amount is 3000.00 but 50% of payable 6150.00 = 3075.00'),
    ]);
    expect(faultsAfter(PREPAYMENT, (d) => (d.totals.due = '3000.00'))).toEqual([
      fault('due', '$.doc.totals.due', 'totals.due is 3000.00 but payable 6150.00 − advances 3075.00 = 3075.00'),
    ]);
  });

  it('reports a due date given as a percent of the payable amount', () => {
    const faults = faultsAfter('es-invoice-es-es-vateqs-provider.json', (d) => (d.payment.terms.due_dates[0].amount = '45.71'));
    expect(faults.map((f) => [f.code, f.path])).toEqual([['due-date-amount', '$.doc.payment.terms.due_dates[0].amount']]);
  });

  it('does not care how a correct figure is written', () => {
    expect(faultsAfter(FREELANCE, (d) => (d.totals.sum = '1620.0'))).toEqual([]);
    expect(faultsAfter(FREELANCE, (d) => (d.totals.payable = '1717.200'))).toEqual([]);
  });
});

describe("checkInvoiceArithmetic with GOBL's rounding rules", () => {
  it('under the precise rule sums rates before rounding, so visible rates need not add up', () => {
    // 17.36 + 1.74 are the rounded rate amounts; GOBL's category amount is 19.09.
    const file = 'es-invoice-es-es-vateqs-provider.json';
    expect(faultsAfter(file, (d) => (d.tax.rounding = 'precise'))).toEqual([]);
    const faults = faultsAfter(file, (d) => {
      d.tax.rounding = 'precise';
      d.totals.taxes.categories[0].amount = '19.10';
    });
    expect(faults.map((f) => [f.code, f.path])).toEqual([['tax-category-amount', '$.doc.totals.taxes.categories[0].amount']]);
  });

  it('follows the rule an invoice names', () => {
    expect(faultsAfter('it-b2c-ticket.json', (d) => (d.tax = { ...d.tax, rounding: 'currency' })).length).toBeGreaterThan(0);
    expect(faultsAfter('es-invoice-es-rounding.json', (d) => (d.lines[0].discounts[0].amount = '30.91'))).toHaveLength(1);
  });

  it('accepts figures one of the rules explains when the invoice does not name it', () => {
    // The vateqs invoice recalculated with the currency rule: every amount rounded before summing.
    const currencyFigures = (d: any) => {
      const category = d.totals.taxes.categories[0];
      category.rates[0].amount = '17.35';
      category.rates[1].amount = '1.73';
      category.amount = '19.08';
      d.totals.taxes.sum = '23.38';
      d.totals.tax = '23.38';
      d.totals.tax_included = '19.08';
      d.totals.total = '90.92';
    };
    expect(faultsAfter('es-invoice-es-es-vateqs-provider.json', currencyFigures)).toEqual([]);
    const named = faultsAfter('es-invoice-es-es-vateqs-provider.json', (d) => {
      currencyFigures(d);
      d.tax.rounding = 'precise';
    });
    expect(named.length).toBeGreaterThan(0);
  });
});

describe('checkInvoiceArithmetic on exact decimals', () => {
  it('multiplies prices with more decimals than the currency exactly, and rounds only the totals', () => {
    // 3 × 12.3456 = 37.0368; 21% = 7.777728 → 7.7777 (two decimals beyond the currency);
    // total with tax 37.0368 + 7.7777 = 44.8145 → 44.81, though 37.04 + 7.78 = 44.82.
    const doc = invoice({
      lines: [{ i: 1, quantity: '3', item: { name: 'Widget', price: '12.3456' }, sum: '37.0368', taxes: VAT_21, total: '37.0368' }],
      totals: { sum: '37.04', total: '37.04', taxes: vatTotals('37.04', '7.78'), tax: '7.78', total_with_tax: '44.81', payable: '44.81' },
    });
    expect(checkInvoiceArithmetic(doc)).toEqual([]);

    doc.totals.total_with_tax = '44.82';
    expect(checkInvoiceArithmetic(doc)).toEqual([
      fault('total-with-tax', '$.doc.totals.total_with_tax', 'totals.total_with_tax is 44.82 but total 37.0368 + tax 7.7777 = 44.81'),
    ]);
  });

  // Binary floating point gets each of these wrong: 0.1 + 0.2 = 0.30000000000000004,
  // 2.5 × 0.3333 = 0.8332499999999999 (so 0.8332), and (1.005).toFixed(2) = "1.00".
  const trapLines = (sums: string[]) => [
    { i: 1, quantity: '1', item: { name: 'A', price: '0.10' }, sum: sums[0], taxes: VAT_21, total: sums[0] },
    { i: 2, quantity: '1', item: { name: 'B', price: '0.20' }, sum: sums[1], taxes: VAT_21, total: sums[1] },
    { i: 3, quantity: '2.5', item: { name: 'C', price: '0.3333' }, sum: sums[2], taxes: VAT_21, total: sums[2] },
    { i: 4, quantity: '1', item: { name: 'D', price: '1.005' }, sum: sums[3], taxes: VAT_21, total: sums[3] },
  ];

  it('avoids floating point traps under the currency rule', () => {
    // Each line rounded to cents: 0.10 + 0.20 + 0.83 + 1.01 = 2.14; 21% = 0.4494 → 0.45.
    const doc = invoice({
      tax: { rounding: 'currency' },
      lines: trapLines(['0.10', '0.20', '0.83', '1.01']),
      totals: { sum: '2.14', total: '2.14', taxes: vatTotals('2.14', '0.45'), tax: '0.45', total_with_tax: '2.59', payable: '2.59' },
    });
    expect(checkInvoiceArithmetic(doc)).toEqual([]);

    doc.lines[3].sum = '1.00';
    expect(checkInvoiceArithmetic(doc)).toEqual([
      fault('line-sum', '$.doc.lines[3].sum', 'lines[3].sum is 1.00 but quantity 1 × price 1.005 = 1.01'),
    ]);
  });

  it('avoids floating point traps under the precise rule', () => {
    // Lines keep the price's decimals: 0.1000 + 0.2000 + 0.8333 (0.83325 rounded half up) + 1.0050 = 2.1383.
    const doc = invoice({
      lines: trapLines(['0.10', '0.20', '0.8333', '1.005']),
      totals: { sum: '2.14', total: '2.14', taxes: vatTotals('2.14', '0.45'), tax: '0.45', total_with_tax: '2.59', payable: '2.59' },
    });
    expect(checkInvoiceArithmetic(doc)).toEqual([]);

    doc.lines[2].sum = '0.8332';
    expect(checkInvoiceArithmetic(doc)).toEqual([
      fault('line-sum', '$.doc.lines[2].sum', 'lines[2].sum is 0.8332 but quantity 2.5 × price 0.3333 = 0.8333'),
    ]);
  });

  it('never reports a figure that the rounding of an earlier faulty one may explain', () => {
    // Each line is 0.333 × 10.01 = 3.3333, written 3.33; GOBL's sum 6.6666 is written 6.67.
    const line = { quantity: '0.333', item: { name: 'Hours', price: '10.01' }, sum: '3.33', taxes: VAT_21, total: '3.33' };
    const doc = invoice({
      lines: [{ i: 1, ...line }, { i: 2, ...line }],
      totals: { sum: '6.67', total: '6.67', taxes: vatTotals('6.67', '1.40'), tax: '1.40', total_with_tax: '8.07', payable: '8.07' },
    });
    expect(checkInvoiceArithmetic(doc)).toEqual([]);

    // With the first quantity changed, the check continues from the written 3.33,
    // which stands for anything from 3.325 to 3.335: 6.67 must not become a fault.
    doc.lines[0] = { ...doc.lines[0], quantity: '0.5' };
    expect(checkInvoiceArithmetic(doc)).toEqual([
      fault('line-sum', '$.doc.lines[0].sum', 'lines[0].sum is 3.33 but quantity 0.5 × price 10.01 = 5.01'),
    ]);
  });

  it('computes a document discount as a percent of the unrounded line sum', () => {
    // 7.5% of 333.3300 = 24.99975 → 24.9998; total 308.3302; 21% = 64.7493; total with tax 373.0795.
    const doc = invoice({
      lines: [{ i: 1, quantity: '1', item: { name: 'Service', price: '333.33' }, sum: '333.33', taxes: VAT_21, total: '333.33' }],
      discounts: [{ i: 1, reason: 'Loyalty', percent: '7.5%', amount: '25.00', taxes: VAT_21 }],
      totals: {
        sum: '333.33', discount: '25.00', total: '308.33', taxes: vatTotals('308.33', '64.75'), tax: '64.75',
        total_with_tax: '373.08', payable: '373.08',
      },
    });
    expect(checkInvoiceArithmetic(doc)).toEqual([]);

    doc.discounts[0].amount = '30.00';
    expect(checkInvoiceArithmetic(doc)).toEqual([
      fault('discount-amount', '$.doc.discounts[0].amount', 'discounts[0].amount is 30.00 but 7.5% of the line sum 333.33 = 25.00'),
    ]);
  });

  it('computes a line charge from its rate and the quantity', () => {
    // 0.25 × 10 = 2.50; total 52.50; 21% = 11.025 → 11.03 (half away from zero).
    const doc = invoice({
      lines: [{
        i: 1, quantity: '10', item: { name: 'Bottle', price: '5.00' }, sum: '50.00',
        charges: [{ reason: 'Deposit', rate: '0.25', amount: '2.50' }], taxes: VAT_21, total: '52.50',
      }],
      totals: { sum: '52.50', total: '52.50', taxes: vatTotals('52.50', '11.03'), tax: '11.03', total_with_tax: '63.53', payable: '63.53' },
    });
    expect(checkInvoiceArithmetic(doc)).toEqual([]);

    doc.lines[0].charges[0].amount = '3.00';
    expect(checkInvoiceArithmetic(doc)).toEqual([
      fault('charge-amount', '$.doc.lines[0].charges[0].amount', 'lines[0].charges[0].amount is 3.00 but rate 0.25 × quantity 10 = 2.50'),
    ]);
  });

  it('uses the currency precision GOBL defines (no decimals for JPY)', () => {
    // 3 × 333 = 999; 10% = 99.9 → 100.
    const doc = invoice({
      currency: 'JPY',
      lines: [{ i: 1, quantity: '3', item: { name: 'Tea', price: '333' }, sum: '999', taxes: [{ cat: 'VAT', percent: '10%' }], total: '999' }],
      totals: {
        sum: '999', total: '999', tax: '100', total_with_tax: '1099', payable: '1099',
        taxes: { categories: [{ code: 'VAT', rates: [{ base: '999', percent: '10%', amount: '100' }], amount: '100' }], sum: '100' },
      },
    });
    expect(checkInvoiceArithmetic(doc)).toEqual([]);
  });

  it('converts a price in another currency with the exchange rate', () => {
    // 100.00 USD × 0.875 = 87.50 EUR; 2 × 87.50 = 175.00; 21% = 36.75.
    const doc = invoice({
      exchange_rates: [{ from: 'USD', to: 'EUR', amount: '0.875' }],
      lines: [{ i: 1, quantity: '2', item: { name: 'Licence', currency: 'USD', price: '100.00' }, sum: '175.00', taxes: VAT_21, total: '175.00' }],
      totals: { sum: '175.00', total: '175.00', taxes: vatTotals('175.00', '36.75'), tax: '36.75', total_with_tax: '211.75', payable: '211.75' },
    });
    expect(checkInvoiceArithmetic(doc)).toEqual([]);

    doc.exchange_rates[0].amount = '0.9';
    expect(checkInvoiceArithmetic(doc)).toEqual([
      fault('line-sum', '$.doc.lines[0].sum', 'lines[0].sum is 175.00 but quantity 2 × price 90.00 (100.00 USD at 0.9) = 180.00'),
    ]);

    // Without a rate the line cannot be recomputed, but the totals still are.
    delete doc.exchange_rates;
    expect(checkInvoiceArithmetic(doc)).toEqual([]);
    doc.totals.sum = '176.00';
    expect(checkInvoiceArithmetic(doc).map((f) => f.path)).toEqual(['$.doc.totals.sum']);
  });

  it('skips what it cannot read instead of guessing', () => {
    expect(checkInvoiceArithmetic(null)).toEqual([]);
    expect(checkInvoiceArithmetic(invoice({ lines: 'none', totals: 7 }))).toEqual([]);
    expect(faultsAfter('es-invoice-es-es.json', (d) => (d.lines[0].quantity = 'twenty'))).toEqual([]);
    expect(faultsAfter('es-invoice-es-es.json', (d) => (d.lines[0].taxes[0].percent = 'lots'))).toEqual([]);
    // With neither the line's inputs nor its figures, nothing summed over the lines can be known.
    expect(faultsAfter('es-invoice-es-es.json', (d) => {
      d.lines[0].quantity = 'twenty';
      delete d.lines[0].sum;
      delete d.lines[0].total;
    })).toEqual([]);
  });
});
