// GOBL's tax.TotalCalculator: every taxable item (line, document discount, document charge) adds
// its total to the rate of each of its combos; categories and rates appear in order of first use.
import { BuildError } from '../engine/types.ts';
import type { Node } from '../engine/types.ts';
import type { Amount } from '../num/index.ts';
import { extEquals, prepareCombo } from './combo.ts';
import type { PreparedCombo } from './combo.ts';
import { EXTRA_PRECISION, widenFor } from './env.ts';
import type { CalcEnv } from './env.ts';
import { isNode } from './fields.ts';
import { calculateTaxSums } from './tax-total.ts';
import type { CategoryTotal, RateTotal, TaxTotal } from './tax-total.ts';

export interface TaxableItem {
  /** The item's contribution before tax (a discount's is negative). */
  total: Amount;
  /** The item's `taxes` list, as in the document. */
  taxes: unknown;
  /** The item's path (`$.lines[0]`), for faults on its combos. */
  path: string;
}

export interface TaxSetup {
  env: CalcEnv;
  /** The document regime's country, '' without one. */
  regimeCountry: string;
  /** The tax date: value date, else issue date. */
  date: string;
  /** `tax.prices_include`: the category whose tax the prices already contain, '' for none. */
  includes: string;
}

function sameRate(rt: RateTotal, c: PreparedCombo): boolean {
  if (!extEquals(rt.ext, c.ext)) return false;
  if (rt.country !== c.country) return false;
  if (!rt.percent || !c.percent) return !rt.percent && !c.percent;
  if (rt.surcharge || c.surcharge) {
    if (!rt.surcharge || !c.surcharge) return false;
    if (!rt.surcharge.percent.equals(c.surcharge)) return false;
  }
  return rt.percent.equals(c.percent);
}

function rateTotalFor(t: TaxTotal, c: PreparedCombo, zero: Amount): RateTotal {
  let ct: CategoryTotal | undefined;
  for (const x of t.categories) if (x.code === c.cat) { ct = x; break; }
  if (!ct) {
    ct = { code: c.cat, retained: c.retained, informative: c.informative, rates: [], amount: zero, surcharge: undefined };
    t.categories.push(ct);
  }
  for (const rt of ct.rates) if (sameRate(rt, c)) return rt;
  const rt: RateTotal = {
    country: c.country,
    key: c.key,
    ext: c.ext,
    base: zero,
    percent: c.percent,
    surcharge: c.surcharge ? { percent: c.surcharge, amount: zero } : undefined,
    amount: zero,
  };
  ct.rates.push(rt);
  return rt;
}

/** Prepares every combo of the items (updating them in the document) and sums the tax totals. */
export function calculateTaxTotal(items: TaxableItem[], setup: TaxSetup): TaxTotal {
  const { env } = setup;
  const prepared: PreparedCombo[][] = [];
  const totals: Amount[] = [];
  for (const item of items) {
    const combos: PreparedCombo[] = [];
    let total = item.total;
    if (Array.isArray(item.taxes)) {
      item.taxes.forEach((node: unknown, j: number) => {
        if (!isNode(node)) return;
        combos.push(prepareCombo(node as Node, setup.regimeCountry, setup.date, `${item.path}.taxes[${j}]`));
        total = total.rescaleUp(env.exp + EXTRA_PRECISION);
      });
    }
    prepared.push(combos);
    totals.push(total);
  }

  if (setup.includes !== '') {
    for (let i = 0; i < items.length; i++) {
      const c = prepared[i].find((x) => x.cat === setup.includes);
      if (!c) continue;
      if (c.retained || c.informative) {
        const kind = c.retained ? 'retained' : 'informative';
        throw new BuildError([{
          code: 'invalid-prices-include',
          message: `cannot include ${kind} category '${setup.includes}'`,
          paths: ['$.tax.prices_include'],
        }]);
      }
      if (c.percent) totals[i] = c.percent.remove(totals[i]);
    }
  }

  const t: TaxTotal = { categories: [], sum: env.zero, retained: undefined };
  for (let i = 0; i < items.length; i++) {
    const total = totals[i];
    for (const c of prepared[i]) {
      const rt = rateTotalFor(t, c, env.zero);
      rt.base = widenFor(env, rt.base, total).add(total);
    }
  }
  calculateTaxSums(t, env);
  return t;
}
