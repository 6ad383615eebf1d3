// Line calculation (GOBL's bill/line_calculate.go): price in the document currency, sum =
// price × quantity, line discounts and charges, total. Figures are kept exact in memory and
// written back by finishLine, after GOBL's final rounding to the item price's decimals.
import type { Node } from '../engine/types.ts';
import type { Amount } from '../num/index.ts';
import { EXTRA_PRECISION, applyRule, exponentOf } from './env.ts';
import type { CalcEnv } from './env.ts';
import { convert, findRate, missingRate } from './exchange.ts';
import type { ExchangeRate } from './exchange.ts';
import { isNode, listOf, nonEmptyString, readAmount, readAmountOrZero, takeAmount, takePercent } from './fields.ts';

interface LineAdjustment {
  node: Node;
  amount: Amount;
}

export interface SubLineResult {
  node: Node;
  /** False when the line has no item: GOBL then leaves its figures as they are. */
  calculated: boolean;
  /** The item price in the document currency, when there is one. */
  price: Amount | undefined;
  sum: Amount | undefined;
  total: Amount | undefined;
  discounts: LineAdjustment[];
  charges: LineAdjustment[];
}

export interface LineResult extends SubLineResult {
  /** The line's path (`$.lines[0]`). */
  path: string;
  breakdown: SubLineResult[];
  substituted: SubLineResult[];
}

/** What all lines of one document share. */
export interface LineSetup {
  env: CalcEnv;
  rates: ExchangeRate[];
}

/** The price converted into the document currency; updates item.currency, price and alt_prices. */
function documentPrice(item: Node, price: Amount, setup: LineSetup, path: string): Amount {
  const cur = setup.env.currency;
  const own = nonEmptyString(item.currency);
  const p = price.rescaleUp(exponentOf(own || cur));
  if (own === '' || own === cur) {
    item.price = p.toString();
    return p;
  }
  const original = { currency: own, value: p.toString() };
  const alts = listOf(item, 'alt_prices');
  for (let i = 0; i < alts.length; i++) {
    const ap = alts[i];
    if (!isNode(ap) || ap.currency !== cur) continue;
    const converted = readAmountOrZero(ap, 'value', `${path}.alt_prices[${i}]`).rescaleUp(setup.env.exp);
    setConverted(item, cur, converted, original);
    return converted;
  }
  const rate = findRate(setup.rates, own, cur);
  if (!rate) throw missingRate(own, cur, `${path}.currency`);
  const converted = convert(rate, p);
  setConverted(item, cur, converted, original);
  return converted;
}

function setConverted(item: Node, cur: string, price: Amount, original: Node): void {
  item.currency = cur;
  item.price = price.toString();
  item.alt_prices = [original];
}

/** The base a percent applies to: the line sum, or the adjustment's own base (rewritten at currency precision). */
function adjustmentBase(node: Node, sum: Amount, env: CalcEnv, path: string): Amount {
  const given = readAmount(node, 'base', path);
  if (!given) return sum;
  const base = given.rescaleUp(env.exp);
  node.base = base.toString();
  return applyRule(env, base.rescaleUp(env.exp + EXTRA_PRECISION));
}

function lineDiscounts(line: Node, sum: Amount, total: Amount, env: CalcEnv, path: string, out: LineAdjustment[]): Amount {
  listOf(line, 'discounts').forEach((d, i) => {
    if (!isNode(d)) return;
    const p = `${path}.discounts[${i}]`;
    const percent = takePercent(d, 'percent', p);
    let amount = percent ? percent.of(adjustmentBase(d, sum, env, p)) : readAmountOrZero(d, 'amount', p);
    amount = amount.rescaleUp(env.exp);
    out.push({ node: d, amount });
    total = total.subtract(amount);
  });
  return total;
}

function lineCharges(line: Node, quantity: Amount, sum: Amount, total: Amount, env: CalcEnv, path: string, out: LineAdjustment[]): Amount {
  listOf(line, 'charges').forEach((c, i) => {
    if (!isNode(c)) return;
    const p = `${path}.charges[${i}]`;
    const percent = takePercent(c, 'percent', p);
    let amount = percent ? percent.of(adjustmentBase(c, sum, env, p)) : readAmountOrZero(c, 'amount', p);
    const rate = takeAmount(c, 'rate', p);
    if (rate) amount = rate.multiply(takeAmount(c, 'quantity', p) ?? quantity);
    amount = amount.rescaleUp(env.exp);
    out.push({ node: c, amount });
    total = total.add(amount);
  });
  return total;
}

function emptyResult(node: Node, calculated: boolean, path: string): LineResult {
  return { node, path, calculated, price: undefined, sum: undefined, total: undefined, discounts: [], charges: [], breakdown: [], substituted: [] };
}

/** Sum, adjustments and total of a priced (sub-)line, into `r`. */
function priceLine(r: SubLineResult, price: Amount, setup: LineSetup, path: string): void {
  const { env } = setup;
  const node = r.node;
  const p = env.precise ? price.rescaleUp(env.exp + EXTRA_PRECISION) : price;
  const quantity = readAmountOrZero(node, 'quantity', path);
  node.quantity = quantity.toString();
  const sum = applyRule(env, p.multiply(quantity));
  let total = lineDiscounts(node, sum, sum, env, path, r.discounts);
  total = lineCharges(node, quantity, sum, total, env, path, r.charges);
  r.price = price;
  r.sum = sum;
  r.total = total;
}

function calculateSubLine(node: Node, setup: LineSetup, path: string): SubLineResult {
  const item = node.item;
  if (!isNode(item)) {
    // GOBL skips a sub-line without an item, leaving any figures it states.
    const r = emptyResult(node, false, path);
    r.total = readAmount(node, 'total', path);
    return r;
  }
  const r = emptyResult(node, true, path);
  const given = readAmount(item, 'price', `${path}.item`);
  if (given) priceLine(r, documentPrice(item, given, setup, `${path}.item`), setup, path);
  return r;
}

function calculateSubLines(line: Node, key: string, setup: LineSetup, path: string): SubLineResult[] {
  const out: SubLineResult[] = [];
  listOf(line, key).forEach((sl, i) => {
    if (!isNode(sl)) return;
    sl.i = i + 1;
    out.push(calculateSubLine(sl, setup, `${path}.${key}[${i}]`));
  });
  return out;
}

/** The line's item price as the sum of its breakdown, or undefined when no sub-line has a total. */
function breakdownPrice(item: Node, subs: SubLineResult[], env: CalcEnv): Amount | undefined {
  let price = env.zero;
  let priced = false;
  let exp = 0;
  for (const s of subs) {
    if (s.total) {
      priced = true;
      price = price.matchPrecision(s.total).add(s.total);
    }
    if (s.price && s.price.exp > exp) exp = s.price.exp;
  }
  if (!priced) return undefined;
  price = price.rescale(exp);
  item.currency = env.currency;
  delete item.alt_prices;
  return price;
}

/** Calculates one line (`i` is its position) without writing its figures. */
export function calculateLine(node: Node, index: number, setup: LineSetup, path: string): LineResult {
  node.i = index + 1;
  const item = node.item;
  if (!isNode(item)) {
    // GOBL skips a line without an item, leaving any figures it states (and counting its total).
    const r = emptyResult(node, false, path);
    r.total = readAmount(node, 'total', path);
    return r;
  }
  const r = emptyResult(node, true, path);
  r.substituted = calculateSubLines(node, 'substituted', setup, path);
  r.breakdown = calculateSubLines(node, 'breakdown', setup, path);
  const given = breakdownPrice(item, r.breakdown, setup.env) ?? readAmount(item, 'price', `${path}.item`);
  if (!given) {
    delete item.alt_prices;
    return r;
  }
  priceLine(r, documentPrice(item, given, setup, `${path}.item`), setup, path);
  return r;
}

function writeSubLine(r: SubLineResult, exp: number | undefined): void {
  if (!r.calculated) return;
  const node = r.node;
  if (r.sum) node.sum = (exp === undefined ? r.sum : r.sum.rescaleDown(exp)).toString();
  else delete node.sum;
  if (r.total) node.total = (exp === undefined ? r.total : r.total.rescaleDown(exp)).toString();
  else delete node.total;
}

function writeAdjustments(list: LineAdjustment[], exp: number | undefined): void {
  for (const a of list) a.node.amount = (exp === undefined ? a.amount : a.amount.rescaleDown(exp)).toString();
}

/**
 * Writes a line's figures back. With `round`, GOBL's final rounding applies first: sums, totals
 * and line adjustments no finer than the item price (sub-line adjustments are not rounded).
 */
export function finishLine(r: LineResult, round: boolean): void {
  if (!r.calculated) return;
  const exp = round && r.price ? r.price.exp : undefined;
  writeSubLine(r, exp);
  writeAdjustments(r.discounts, exp);
  writeAdjustments(r.charges, exp);
  for (const s of r.breakdown) {
    writeSubLine(s, exp);
    writeAdjustments(s.discounts, undefined);
    writeAdjustments(s.charges, undefined);
  }
  for (const s of r.substituted) {
    writeSubLine(s, exp);
    writeAdjustments(s.discounts, undefined);
    writeAdjustments(s.charges, undefined);
  }
}
