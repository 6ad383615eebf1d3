// Invoice lines: sum = quantity × price, then line discounts and charges give the total.
import { add, parseAmount, parsePercent, percentOf, rescale, rescaleUp, showAmount, subtract, times } from './amount.ts';
import type { Amount } from './amount.ts';
import type { Audit, Segment } from './audit.ts';
import { currencyExponent } from './currencies.ts';
import { asList, asRecord, asText } from './json.ts';
import type { Json } from './json.ts';
import { applyRule, EXTRA_DECIMALS } from './setup.ts';
import type { Setup } from './setup.ts';

/** A line's total and the taxes it carries, for the tax totals. */
export type TaxedAmount = { total: Amount; taxes: unknown };

export type Lines = {
  taxed: TaxedAmount[];
  /** false when a priced line's total could not be worked out, so neither can anything summed from them */
  complete: boolean;
};

export function checkLines(doc: Json, setup: Setup, audit: Audit): Lines {
  const taxed: TaxedAmount[] = [];
  let complete = true;
  asList(doc.lines).forEach((value, index) => {
    const line = asRecord(value);
    const item = asRecord(line?.item);
    // GOBL leaves a line without a price out of every total.
    if (!line || !item || item.price === undefined || item.price === null) return;
    const total = checkLine(line, item, ['lines', index], doc, setup, audit);
    if (total) taxed.push({ total, taxes: line.taxes });
    else complete = false;
  });
  return { taxed, complete };
}

function checkLine(line: Json, item: Json, at: Segment[], doc: Json, setup: Setup, audit: Audit): Amount | undefined {
  const quantity = parseAmount(line.quantity);
  const price = priceInInvoiceCurrency(item, doc, setup);
  let expectedSum: Amount | undefined;
  if (price && quantity) {
    // Under the precise rule GOBL multiplies with two decimals more than the currency's.
    const digits = setup.exp + (setup.rule === 'precise' ? EXTRA_DECIMALS : 0);
    expectedSum = applyRule(setup, times(rescaleUp(price.amount, digits), quantity.value));
  }
  const sum = audit.figure({
    path: [...at, 'sum'],
    code: 'line-sum',
    stated: line.sum,
    expected: expectedSum,
    explain: (x) => `quantity ${String(line.quantity)} × price ${price?.shown ?? String(item.price)} = ${x}`,
  });
  if (!sum) return undefined;

  let total: Amount | undefined = sum;
  const steps = [`sum ${showAmount(sum, setup.exp)}`];
  asList(line.discounts).forEach((value, index) => {
    const amount = lineAdjustment(asRecord(value), [...at, 'discounts', index], 'discount-amount', sum, quantity, setup, audit);
    total = total && amount ? subtract(total, amount) : undefined;
    if (amount) steps.push(`− discount ${showAmount(amount, setup.exp)}`);
  });
  asList(line.charges).forEach((value, index) => {
    const amount = lineAdjustment(asRecord(value), [...at, 'charges', index], 'charge-amount', sum, quantity, setup, audit);
    total = total && amount ? add(total, amount) : undefined;
    if (amount) steps.push(`+ charge ${showAmount(amount, setup.exp)}`);
  });
  return audit.figure({
    path: [...at, 'total'],
    code: 'line-total',
    stated: line.total,
    expected: total,
    explain: (x) => (steps.length === 1 ? `it should equal the line's sum ${x}` : `${steps.join(' ')} = ${x}`),
  });
}

// A line discount or charge: a percent of the line sum (or of its own base), a
// charge's rate per unit, or a fixed amount. Only calculated amounts are checked.
function lineAdjustment(
  adjustment: Json | undefined,
  at: Segment[],
  code: string,
  sum: Amount,
  quantity: Amount | undefined,
  setup: Setup,
  audit: Audit,
): Amount | undefined {
  if (!adjustment) return undefined;
  const percent = parsePercent(adjustment.percent);
  const rate = code === 'charge-amount' ? parseAmount(adjustment.rate) : undefined;
  const stated = parseAmount(adjustment.amount);
  if (rate) {
    const units = parseAmount(adjustment.quantity) ?? quantity;
    const expected = units ? rescaleUp(times(rate, units.value), setup.exp) : undefined;
    return audit.figure({
      path: [...at, 'amount'], code, stated: adjustment.amount, expected,
      explain: (x) => `rate ${String(adjustment.rate)} × quantity ${units ? showAmount(units, 0) : '?'} = ${x}`,
    });
  }
  if (percent) {
    const ownBase = parseAmount(adjustment.base);
    const base = ownBase ? applyRule(setup, rescaleUp(ownBase, setup.exp + EXTRA_DECIMALS)) : sum;
    const expected = rescaleUp(percentOf(base, percent), setup.exp);
    return audit.figure({
      path: [...at, 'amount'], code, stated: adjustment.amount, expected,
      explain: (x) => `${String(adjustment.percent)} of ${ownBase ? 'base' : 'sum'} ${showAmount(base, setup.exp)} = ${x}`,
    });
  }
  return stated && rescaleUp(stated, setup.exp);
}

// GOBL converts a price in another currency with the invoice's exchange rate
// (and keeps the original among the item's alt_prices), so a calculated
// invoice states prices in its own currency already.
function priceInInvoiceCurrency(item: Json, doc: Json, setup: Setup): { amount: Amount; shown: string } | undefined {
  const price = parseAmount(item.price);
  if (!price) return undefined;
  const itemCurrency = asText(item.currency) ?? setup.currency;
  const own = rescaleUp(price, currencyExponent(itemCurrency) ?? setup.exp);
  if (itemCurrency === setup.currency) return { amount: own, shown: String(item.price) };
  for (const value of asList(doc.exchange_rates)) {
    const rate = asRecord(value);
    const factor = parseAmount(rate?.amount);
    if (rate?.from === itemCurrency && rate.to === setup.currency && factor) {
      const amount = rescale(times(own, factor.value), setup.exp);
      return { amount, shown: `${showAmount(amount, setup.exp)} (${String(item.price)} ${itemCurrency} at ${String(rate.amount)})` };
    }
  }
  return undefined;
}
