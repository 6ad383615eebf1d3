// GOBL's bill calculation for invoices, orders and deliveries (bill/calculator.go), in its order:
// defaults, bypass, customer rates, preceding taxes, lines, document discounts and charges, tax
// totals, final rounding, payments.
import { isKnownCurrency } from '../defs/index.ts';
import { BuildError } from '../engine/types.ts';
import type { BuildContext, Node } from '../engine/types.ts';
import type { Amount } from '../num/index.ts';
import { calculateAdjustments, finishAdjustments } from './adjustments.ts';
import type { Adjustments } from './adjustments.ts';
import { calcEnv, roundingRuleName } from './env.ts';
import type { CalcEnv } from './env.ts';
import { readExchangeRates } from './exchange.ts';
import { isNode, listOf, nonEmptyString, readAmount } from './fields.ts';
import { applyIssueDefaults } from './issue-date.ts';
import { calculateLine, finishLine } from './lines.ts';
import type { LineResult } from './lines.ts';
import { calculatePaymentDetails } from './payment-terms.ts';
import { calculateTaxTotal } from './tax-calculator.ts';
import type { TaxableItem } from './tax-calculator.ts';
import { calculateTaxSums, readTaxTotal, roundTaxTotal, taxTotalNode } from './tax-total.ts';
import type { TaxTotal } from './tax-total.ts';

function hasTag(doc: Node, tag: string): boolean {
  return Array.isArray(doc.$tags) && doc.$tags.includes(tag);
}

/** A missing or unknown currency becomes the regime's; without a regime that is an error. */
function documentCurrency(doc: Node, ctx: BuildContext): string {
  const given = nonEmptyString(doc.currency);
  if (given !== '' && isKnownCurrency(given)) return given;
  if (!ctx.regime) throw new BuildError([{ code: 'invalid-currency', message: 'currency: missing or invalid', paths: ['$.currency'] }]);
  doc.currency = ctx.regime.currency;
  return ctx.regime.currency;
}

/** The `customer-rates` tag: every combo is taxed in the customer's tax country. */
function applyCustomerRates(doc: Node): void {
  const taxId = isNode(doc.customer) && isNode(doc.customer.tax_id) ? doc.customer.tax_id : undefined;
  if (!taxId) return;
  const country = nonEmptyString(taxId.country);
  for (const key of ['lines', 'discounts', 'charges']) {
    for (const item of listOf(doc, key)) {
      if (!isNode(item)) continue;
      for (const combo of listOf(item, 'taxes')) {
        if (!isNode(combo)) continue;
        if (country === '') delete combo.country;
        else combo.country = country;
      }
    }
  }
}

/**
 * Recalculates `preceding[].tax` from its stated bases, in the reference's currency when it has
 * one (which, as in GOBL, then also applies to the references after it).
 */
function calculatePreceding(doc: Node, currency: string, rule: string): void {
  let cur = currency;
  listOf(doc, 'preceding').forEach((ref, i) => {
    if (!isNode(ref)) return;
    const own = nonEmptyString(ref.currency);
    if (own !== '') cur = own;
    if (!isNode(ref.tax)) return;
    const env = calcEnv(cur, rule);
    const t = readTaxTotal(ref.tax, `$.preceding[${i}].tax`);
    calculateTaxSums(t, env);
    roundTaxTotal(t, env.exp);
    ref.tax = taxTotalNode(t);
  });
}

function lineSum(lines: LineResult[], env: CalcEnv): Amount {
  let sum = env.zero;
  for (const l of lines) if (l.total) sum = sum.matchPrecision(l.total).add(l.total);
  return sum;
}

function taxableItems(lines: LineResult[], discounts: Adjustments, charges: Adjustments): TaxableItem[] {
  const items: TaxableItem[] = [];
  lines.forEach((l) => {
    if (l.total) items.push({ total: l.total, taxes: l.node.taxes, path: l.path });
  });
  for (const d of discounts.list) items.push({ total: d.amount.negate(), taxes: d.node.taxes, path: d.path });
  for (const c of charges.list) items.push({ total: c.amount, taxes: c.node.taxes, path: c.path });
  return items;
}

interface Figures {
  sum: Amount;
  discount: Amount | undefined;
  charge: Amount | undefined;
  taxIncluded: Amount | undefined;
  total: Amount;
  taxes: TaxTotal | undefined;
  tax: Amount;
  totalWithTax: Amount;
  retainedTax: Amount | undefined;
  rounding: Amount | undefined;
  payable: Amount;
  advance: Amount | undefined;
  due: Amount | undefined;
}

function roundFigures(f: Figures, exp: number): void {
  f.sum = f.sum.rescale(exp);
  f.discount = f.discount?.rescale(exp);
  f.charge = f.charge?.rescale(exp);
  f.taxIncluded = f.taxIncluded?.rescale(exp);
  f.total = f.total.rescale(exp);
  if (f.taxes) roundTaxTotal(f.taxes, exp);
  f.tax = f.tax.rescale(exp);
  f.totalWithTax = f.totalWithTax.rescale(exp);
  f.retainedTax = f.retainedTax?.rescale(exp);
  f.payable = f.payable.rescale(exp);
}

/** The totals node, in GOBL's field order, without the absent optional figures. */
function totalsNode(f: Figures): Node {
  const t: Node = { sum: f.sum.toString() };
  if (f.discount) t.discount = f.discount.toString();
  if (f.charge) t.charge = f.charge.toString();
  if (f.taxIncluded) t.tax_included = f.taxIncluded.toString();
  t.total = f.total.toString();
  if (f.taxes) t.taxes = taxTotalNode(f.taxes);
  t.tax = f.tax.toString();
  t.total_with_tax = f.totalWithTax.toString();
  if (f.retainedTax) t.retained_tax = f.retainedTax.toString();
  if (f.rounding) t.rounding = f.rounding.toString();
  t.payable = f.payable.toString();
  if (f.advance) t.advance = f.advance.toString();
  if (f.due) t.due = f.due.toString();
  return t;
}

/** Calculates an invoice, order or delivery in place. `withPayment`: the type has payment details. */
export function calculateBill(doc: Node, ctx: BuildContext, withPayment: boolean): void {
  const regime = ctx.regime;
  const date = applyIssueDefaults(doc, regime, ctx.now);
  const currency = documentCurrency(doc, ctx);
  if (hasTag(doc, 'bypass')) return;

  // A rounding adjustment stated in the totals survives the recalculation.
  const rounding = isNode(doc.totals) ? readAmount(doc.totals, 'rounding', '$.totals') : undefined;
  const tax = isNode(doc.tax) ? doc.tax : undefined;
  const rule = roundingRuleName(tax?.rounding, regime);
  const includes = nonEmptyString(tax?.prices_include);
  const env = calcEnv(currency, rule);

  if (hasTag(doc, 'customer-rates')) applyCustomerRates(doc);
  calculatePreceding(doc, currency, rule);

  const setup = { env, rates: readExchangeRates(doc) };
  const lines: LineResult[] = [];
  listOf(doc, 'lines').forEach((node, i) => {
    if (isNode(node)) lines.push(calculateLine(node, i, setup, `$.lines[${i}]`));
  });
  const sum = lineSum(lines, env);
  let total = sum;
  const discounts = calculateAdjustments(doc, 'discounts', sum, env);
  if (discounts.sum) total = total.subtract(discounts.sum);
  const charges = calculateAdjustments(doc, 'charges', sum, env);
  if (charges.sum) total = total.add(charges.sum);

  const items = taxableItems(lines, discounts, charges);
  if (items.length === 0) {
    // Orders and deliveries without prices: no totals at all.
    for (const l of lines) finishLine(l, false);
    delete doc.totals;
    return;
  }

  const taxes = calculateTaxTotal(items, {
    env, regimeCountry: regime?.country ?? '', date, includes,
  });
  let taxIncluded: Amount | undefined;
  const includedCategory = taxes.categories.find((c) => c.code === includes);
  if (includedCategory) {
    taxIncluded = includedCategory.amount;
    total = total.subtract(taxIncluded);
  }
  const totalWithTax = total.add(taxes.sum);
  const f: Figures = {
    sum,
    discount: discounts.sum,
    charge: charges.sum,
    taxIncluded,
    total,
    taxes: taxes.categories.length > 0 ? taxes : undefined,
    tax: taxes.sum,
    totalWithTax,
    retainedTax: taxes.retained,
    rounding,
    payable: taxes.retained ? totalWithTax.subtract(taxes.retained) : totalWithTax,
    advance: undefined,
    due: undefined,
  };

  for (const l of lines) finishLine(l, true);
  finishAdjustments(discounts, env, true);
  finishAdjustments(charges, env, true);
  roundFigures(f, env.exp);
  if (rounding) f.payable = f.payable.add(rounding);
  if (withPayment && isNode(doc.payment)) {
    f.advance = calculatePaymentDetails(doc.payment, f.payable, env);
    if (f.advance) f.due = f.payable.subtract(f.advance);
  }
  doc.totals = totalsNode(f);
}

