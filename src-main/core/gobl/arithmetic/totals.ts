// The document totals, from the line sum down to what is due, and the payment
// figures GOBL derives from them (percentage advances and due dates).
import { add, parseAmount, parsePercent, percentOf, rescale, rescaleUp, showAmount, subtract, zeroAmount } from './amount.ts';
import type { Amount } from './amount.ts';
import { checkAdjustments } from './adjustments.ts';
import type { Adjustments } from './adjustments.ts';
import type { Audit, Segment } from './audit.ts';
import { asList, asRecord } from './json.ts';
import type { Json } from './json.ts';
import { checkLines } from './lines.ts';
import type { Setup } from './setup.ts';
import { checkTaxes } from './taxes.ts';

/** Runs every check on one invoice, in the order GOBL calculates the figures. */
export function checkFigures(doc: Json, setup: Setup, audit: Audit): void {
  const totals = asRecord(doc.totals) ?? {};
  const show = (a: Amount | undefined) => (a ? showAmount(a, setup.exp) : '?');
  const figure = (name: string, code: string, expected: Amount | undefined, explain: (x: string) => string) =>
    audit.figure({ path: ['totals', name], code, stated: totals[name], expected, explain });

  const lines = checkLines(doc, setup, audit);
  let lineSum: Amount | undefined = zeroAmount(setup.exp);
  for (const line of lines.taxed) lineSum = add(rescaleUp(lineSum, line.total.exp), line.total);
  if (!lines.complete) lineSum = undefined;
  const sum = figure('sum', 'sum', lineSum, (x) => `the line totals add up to ${x}`);

  const discounts = checkAdjustments('discounts', doc, sum, setup, audit);
  const discount = adjustmentTotal('discount', discounts, totals, audit, setup);
  const charges = checkAdjustments('charges', doc, sum, setup, audit);
  const charge = adjustmentTotal('charge', charges, totals, audit, setup);

  // A taxed amount that cannot be worked out would leave its rate's base short.
  const taxed = lines.complete && discounts.complete && charges.complete
    ? [...lines.taxed, ...discounts.taxed, ...charges.taxed]
    : undefined;
  const taxes = checkTaxes(taxed, doc, setup, audit);
  // Unreadable taxes leave the stated tax figures to stand in, unchecked.
  const expectedIncluded = setup.pricesInclude !== undefined ? taxes.included : zeroIfStated(totals.tax_included, setup);
  const included = figure('tax_included', 'tax-included', taxes.known ? expectedIncluded : undefined,
    (x) => `the ${setup.pricesInclude ?? 'included'} category amount is ${x}`);

  let expectedTotal = discounts.complete && charges.complete ? sum : undefined;
  const steps = [`sum ${show(sum)}`];
  if (discount) steps.push(`− discounts ${show(discount)}`);
  if (charge) steps.push(`+ charges ${show(charge)}`);
  if (included) steps.push(`− tax included ${show(included)}`);
  if (expectedTotal && discount) expectedTotal = subtract(expectedTotal, discount);
  if (expectedTotal && charge) expectedTotal = add(expectedTotal, charge);
  if (expectedTotal && included) expectedTotal = subtract(expectedTotal, included);
  const total = figure('total', 'total', expectedTotal, (x) => `${steps.join(' ')} = ${x}`);

  const tax = figure('tax', 'tax', taxes.sum, (x) => `totals.taxes.sum is ${x}`);
  const withTax = figure('total_with_tax', 'total-with-tax', total && tax && add(total, tax),
    (x) => `total ${show(total)} + tax ${show(tax)} = ${x}`);
  const expectedRetained = taxes.retained ?? (taxes.known ? zeroIfStated(totals.retained_tax, setup) : undefined);
  const retained = figure('retained_tax', 'retained-tax', expectedRetained, (x) => `the retained taxes add up to ${x}`);

  // GOBL rounds the totals before adding the rounding adjustment and working out payments.
  const rounding = parseAmount(totals.rounding);
  let expectedPayable = withTax && rescale(retained ? subtract(withTax, retained) : withTax, setup.exp);
  if (expectedPayable && rounding) expectedPayable = add(expectedPayable, rounding);
  const payable = figure('payable', 'payable', expectedPayable, (x) => {
    const parts = [`total with tax ${show(withTax)}`];
    if (retained) parts.push(`− retained ${show(retained)}`);
    if (rounding) parts.push(`+ rounding ${show(rounding)}`);
    return `${parts.join(' ')} = ${x}`;
  });

  checkPayments(doc, totals, payable, setup, audit);
}

function adjustmentTotal(name: 'discount' | 'charge', adjustments: Adjustments, totals: Json, audit: Audit, setup: Setup): Amount | undefined {
  return audit.figure({
    path: ['totals', name],
    code: name,
    stated: totals[name],
    expected: adjustments.sum ?? (adjustments.complete ? zeroIfStated(totals[name], setup) : undefined),
    explain: (x) => `the document ${name}s add up to ${x}`,
  });
}

// A total GOBL only writes when there is something in it: stated anyway, it must be zero.
function zeroIfStated(stated: unknown, setup: Setup): Amount | undefined {
  return stated === undefined || stated === null ? undefined : zeroAmount(setup.exp);
}

function checkPayments(doc: Json, totals: Json, payable: Amount | undefined, setup: Setup, audit: Audit): void {
  const payment = asRecord(doc.payment);
  const advances = asList(payment?.advances);
  let advance: Amount | undefined = advances.length > 0 ? zeroAmount(setup.exp) : zeroIfStated(totals.advance, setup);
  advances.forEach((value, index) => {
    const record = asRecord(value);
    const amount = percentFigure(record, ['payment', 'advances', index, 'amount'], 'advance-amount', payable, setup, audit);
    advance = advance && amount ? add(advance, amount) : undefined;
  });
  const carriedAdvance = audit.figure({
    path: ['totals', 'advance'], code: 'advance', stated: totals.advance, expected: advance,
    explain: (x) => `the advances add up to ${x}`,
  });
  const paid = carriedAdvance ?? zeroAmount(setup.exp);
  audit.figure({
    path: ['totals', 'due'], code: 'due', stated: totals.due, expected: payable && subtract(payable, paid),
    explain: (x) => `payable ${payable ? showAmount(payable, setup.exp) : '?'} − advances ${showAmount(paid, setup.exp)} = ${x}`,
  });

  const terms = asRecord(payment?.terms);
  asList(terms?.due_dates).forEach((value, index) => {
    const dueDate = asRecord(value);
    if (parsePercent(dueDate?.percent)?.isZero() === false) {
      percentFigure(dueDate, ['payment', 'terms', 'due_dates', index, 'amount'], 'due-date-amount', payable, setup, audit);
    }
  });
}

// An advance or due date given as a percent of the payable amount, always at the currency's precision.
function percentFigure(record: Json | undefined, path: Segment[], code: string, payable: Amount | undefined, setup: Setup, audit: Audit) {
  const percent = parsePercent(record?.percent);
  if (!record || !percent) {
    const stated = parseAmount(record?.amount);
    return stated && rescale(stated, setup.exp);
  }
  return audit.figure({
    path, code, stated: record.amount,
    expected: payable && rescale(percentOf(payable, percent), setup.exp),
    explain: (x) => `${String(record.percent)} of payable ${payable ? showAmount(payable, setup.exp) : '?'} = ${x}`,
  });
}
