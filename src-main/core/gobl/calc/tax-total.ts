// GOBL's tax.Total held in memory while it is calculated: categories in order of first
// appearance, each with its rates; amounts are exact decimals until they are written back.
import type { Node } from '../engine/types.ts';
import { Amount } from '../num/index.ts';
import { Percentage } from '../num/index.ts';
import type { Extensions } from './combo.ts';
import { cleanExtensions } from './combo.ts';
import { widenFor } from './env.ts';
import type { CalcEnv } from './env.ts';
import { isNode, listOf, nonEmptyString, readAmount, readAmountOrZero, readPercent } from './fields.ts';

// A value-typed percentage that is absent reads as Go's zero value.
const ZERO_PERCENT = new Percentage(new Amount(0, 0));

export interface RateTotal {
  country: string;
  key: string;
  ext: Extensions | undefined;
  base: Amount;
  percent: Percentage | undefined;
  surcharge: { percent: Percentage; amount: Amount } | undefined;
  amount: Amount;
}

export interface CategoryTotal {
  code: string;
  retained: boolean;
  informative: boolean;
  rates: RateTotal[];
  amount: Amount;
  surcharge: Amount | undefined;
}

export interface TaxTotal {
  categories: CategoryTotal[];
  sum: Amount;
  retained: Amount | undefined;
}

/**
 * GOBL's Total.Calculate: each rate's amount (and surcharge) from its base, category amounts, then
 * `sum` (neither retained nor informative, surcharges included) and `retained`. A category
 * surcharge or a `retained` already present is added to, not reset, exactly as GOBL does.
 */
export function calculateTaxSums(t: TaxTotal, env: CalcEnv): void {
  const zero = env.zero;
  t.sum = zero;
  for (const ct of t.categories) {
    ct.amount = zero;
    for (const rt of ct.rates) {
      if (!rt.percent) {
        rt.amount = zero;
        continue;
      }
      rt.amount = rt.percent.of(rt.base);
      ct.amount = widenFor(env, ct.amount, rt.amount).add(rt.amount);
      if (rt.surcharge) {
        const a = rt.surcharge.percent.of(rt.base);
        rt.surcharge.amount = a;
        ct.surcharge = widenFor(env, ct.surcharge ?? zero, a).add(a);
      }
    }
    if (ct.informative) continue;
    if (ct.retained) {
      let r = widenFor(env, t.retained ?? zero, ct.amount).add(ct.amount);
      if (ct.surcharge) r = r.add(ct.surcharge);
      t.retained = r;
    } else {
      t.sum = widenFor(env, t.sum, ct.amount).add(ct.amount);
      if (ct.surcharge) t.sum = t.sum.add(ct.surcharge);
    }
  }
}

/** GOBL's Total.Round: every figure to exactly `exp` decimals. */
export function roundTaxTotal(t: TaxTotal, exp: number): void {
  for (const ct of t.categories) {
    for (const rt of ct.rates) {
      rt.amount = rt.amount.rescale(exp);
      rt.base = rt.base.rescale(exp);
      if (rt.surcharge) rt.surcharge.amount = rt.surcharge.amount.rescale(exp);
    }
    ct.amount = ct.amount.rescale(exp);
    if (ct.surcharge) ct.surcharge = ct.surcharge.rescale(exp);
  }
  t.sum = t.sum.rescale(exp);
  if (t.retained) t.retained = t.retained.rescale(exp);
}

/** The JSON form, with GOBL's omissions (no empty country, key, ext, flags or lists). */
export function taxTotalNode(t: TaxTotal): Node {
  const out: Node = {};
  if (t.categories.length > 0) out.categories = t.categories.map(categoryNode);
  out.sum = t.sum.toString();
  if (t.retained) out.retained = t.retained.toString();
  return out;
}

function categoryNode(ct: CategoryTotal): Node {
  const out: Node = { code: ct.code };
  if (ct.retained) out.retained = true;
  if (ct.informative) out.informative = true;
  out.rates = ct.rates.map(rateNode);
  out.amount = ct.amount.toString();
  if (ct.surcharge) out.surcharge = ct.surcharge.toString();
  return out;
}

function rateNode(rt: RateTotal): Node {
  const out: Node = {};
  if (rt.country) out.country = rt.country;
  if (rt.key) out.key = rt.key;
  if (rt.ext) out.ext = { ...rt.ext };
  out.base = rt.base.toString();
  if (rt.percent) out.percent = rt.percent.toString();
  if (rt.surcharge) out.surcharge = { percent: rt.surcharge.percent.toString(), amount: rt.surcharge.amount.toString() };
  out.amount = rt.amount.toString();
  return out;
}

/** A stated tax total (a preceding document's, a payment line's) read from JSON. */
export function readTaxTotal(node: Node, path: string): TaxTotal {
  const categories: CategoryTotal[] = [];
  listOf(node, 'categories').forEach((c, i) => {
    if (!isNode(c)) return;
    const cp = `${path}.categories[${i}]`;
    const rates: RateTotal[] = [];
    listOf(c, 'rates').forEach((r, j) => {
      if (!isNode(r)) return;
      const rp = `${cp}.rates[${j}]`;
      const s = isNode(r.surcharge) ? r.surcharge : undefined;
      rates.push({
        country: nonEmptyString(r.country),
        key: nonEmptyString(r.key),
        ext: cleanExtensions(r.ext),
        base: readAmountOrZero(r, 'base', rp),
        percent: readPercent(r, 'percent', rp),
        surcharge: s ? {
          percent: readPercent(s, 'percent', `${rp}.surcharge`) ?? ZERO_PERCENT,
          amount: readAmountOrZero(s, 'amount', `${rp}.surcharge`),
        } : undefined,
        amount: readAmountOrZero(r, 'amount', rp),
      });
    });
    categories.push({
      code: nonEmptyString(c.code),
      retained: c.retained === true,
      informative: c.informative === true,
      rates,
      amount: readAmountOrZero(c, 'amount', cp),
      surcharge: readAmount(c, 'surcharge', cp),
    });
  });
  return { categories, sum: readAmountOrZero(node, 'sum', path), retained: readAmount(node, 'retained', path) };
}
