// The tax totals: each rate's base is what the lines, discounts and charges
// carrying it add up to (see tax-category.ts for a rate's own figures), and
// the tax sum and retained taxes add up the categories.
import { add, rescaleUp, withoutPercent, zeroAmount } from './amount.ts';
import type { Amount } from './amount.ts';
import type { Audit, Segment } from './audit.ts';
import { relative } from './audit.ts';
import { asList, asRecord } from './json.ts';
import type { Json } from './json.ts';
import type { TaxedAmount } from './lines.ts';
import { addToTaxSum, EXTRA_DECIMALS } from './setup.ts';
import type { Setup } from './setup.ts';
import { checkCategory } from './tax-category.ts';
import type { CategoryGroup, CategoryResult } from './tax-category.ts';
import { readCombos, sameRate } from './tax-combos.ts';

export type TaxTotals = {
  /** false when the taxes could not be read, so nothing follows from them */
  known: boolean;
  /** what the taxes add to the invoice (totals.taxes.sum) */
  sum: Amount | undefined;
  /** what the customer withholds, when a category is retained */
  retained: Amount | undefined;
  /** the amount of the category prices include, when they include one */
  included: Amount | undefined;
};

const TAXES: Segment[] = ['totals', 'taxes'];
const UNKNOWN: TaxTotals = { known: false, sum: undefined, retained: undefined, included: undefined };

/** Checks totals.taxes against the taxed amounts; with those unknown (undefined), nothing can be checked. */
export function checkTaxes(taxed: readonly TaxedAmount[] | undefined, doc: Json, setup: Setup, audit: Audit): TaxTotals {
  const groups = taxed && groupByRate(taxed, setup);
  if (!groups) return UNKNOWN;
  const statedTaxes = asRecord(asRecord(doc.totals)?.taxes);
  const statedCategories = asList(statedTaxes?.categories);
  if (groups.length > 0 && statedCategories.length === 0) {
    const where = statedTaxes ? [...TAXES, 'categories'] : TAXES;
    audit.report(where, 'tax-category-missing', `${relative(where)} is missing, though lines, discounts or charges apply ${names(groups)}`);
    return UNKNOWN;
  }

  const usedCategories = new Set<number>();
  const results = new Map<string, CategoryResult>();
  let flagsKnown = true;
  for (const group of groups) {
    const index = statedCategories.findIndex((c, i) => !usedCategories.has(i) && asRecord(c)?.code === group.code);
    if (index < 0) {
      const where = [...TAXES, 'categories'];
      audit.report(where, 'tax-category-missing', `${relative(where)} has no ${group.code} category, though lines, discounts or charges apply it`);
      flagsKnown = false;
    } else usedCategories.add(index);
    const stated = index < 0 ? undefined : asRecord(statedCategories[index]);
    results.set(group.code, checkCategory(group, stated, [...TAXES, 'categories', index], setup, audit));
  }
  statedCategories.forEach((value, index) => {
    if (usedCategories.has(index)) return;
    const where = [...TAXES, 'categories', index];
    const code = asRecord(value)?.code;
    audit.report(where, 'tax-category-unexpected', `${relative(where)} (${String(code)}) is not applied by any line, discount or charge`);
  });

  const { sum, retained } = addUpCategories(results, setup);
  const carriedSum = audit.figure({
    path: [...TAXES, 'sum'], code: 'tax-sum', stated: statedTaxes?.sum,
    expected: flagsKnown ? sum : undefined,
    explain: (x) => `the amounts of the categories that are not retained add up to ${x}`,
  });
  const carriedRetained = audit.figure({
    path: [...TAXES, 'retained'], code: 'tax-retained', stated: statedTaxes?.retained,
    expected: flagsKnown ? retained ?? zeroAmount(setup.exp) : undefined,
    explain: (x) => `the retained category amounts add up to ${x}`,
  });
  const included = setup.pricesInclude === undefined ? undefined : results.get(setup.pricesInclude)?.amount;
  // Without the categories' retained flags, only the stated retained figure can stand in.
  return { known: true, sum: carriedSum, retained: flagsKnown ? retained && carriedRetained : carriedRetained, included };
}

// GOBL's TotalCalculator: every taxed amount goes, with two extra decimals and
// without the tax its price includes, into the base of each rate it carries.
function groupByRate(taxed: readonly TaxedAmount[], setup: Setup): CategoryGroup[] | undefined {
  const groups: CategoryGroup[] = [];
  for (const { total, taxes } of taxed) {
    const combos = readCombos(taxes);
    if (!combos) return undefined;
    if (combos.length === 0) continue;
    let amount = rescaleUp(total, setup.exp + EXTRA_DECIMALS);
    const included = setup.pricesInclude === undefined ? undefined : combos.find((c) => c.category === setup.pricesInclude);
    if (included?.percent) amount = withoutPercent(amount, included.percent);
    for (const combo of combos) {
      let group = groups.find((g) => g.code === combo.category);
      if (!group) groups.push((group = { code: combo.category, rates: [] }));
      let rate = group.rates.find((r) => sameRate(r.combo, combo));
      if (!rate) group.rates.push((rate = { combo, base: zeroAmount(setup.exp) }));
      rate.base = addToTaxSum(setup, rate.base, amount);
    }
  }
  return groups;
}

function addUpCategories(results: ReadonlyMap<string, CategoryResult>, setup: Setup) {
  let sum = zeroAmount(setup.exp);
  let retained: Amount | undefined;
  for (const category of results.values()) {
    // Informative taxes are shown but neither charged nor withheld.
    if (category.informative) continue;
    let total = category.retained ? retained ?? zeroAmount(setup.exp) : sum;
    total = addToTaxSum(setup, total, category.amount);
    if (category.surcharge) total = add(total, category.surcharge);
    if (category.retained) retained = total;
    else sum = total;
  }
  return { sum, retained };
}

function names(groups: readonly CategoryGroup[]): string {
  return groups.map((g) => g.code).join(', ');
}
