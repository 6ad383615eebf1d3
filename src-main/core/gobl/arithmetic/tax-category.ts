// One category of the tax totals: which stated rate each group of taxed
// amounts is, then each rate's base, amount and surcharge, and the category's
// amount and surcharge.
import { percentOf, showAmount, zeroAmount } from './amount.ts';
import type { Amount } from './amount.ts';
import type { Audit, Segment } from './audit.ts';
import { relative } from './audit.ts';
import { asList, asRecord } from './json.ts';
import type { Json } from './json.ts';
import { addToTaxSum } from './setup.ts';
import type { Setup } from './setup.ts';
import { rateLabel, readStatedRate, sameRate, sameRateApartFromPercent } from './tax-combos.ts';
import type { Combo } from './tax-combos.ts';

/** The taxed amounts GOBL groups into one rate, and what their base adds up to. */
export type RateGroup = { combo: Combo; base: Amount };
export type CategoryGroup = { code: string; rates: RateGroup[] };
export type CategoryResult = { amount: Amount; surcharge: Amount | undefined; retained: boolean; informative: boolean };

export function checkCategory(group: CategoryGroup, stated: Json | undefined, at: Segment[], setup: Setup, audit: Audit): CategoryResult {
  const statedRates = asList(stated?.rates).map((value) => {
    const rate = asRecord(value);
    return rate && readStatedRate(group.code, rate);
  });
  const pairs = stated ? pairRates(group.rates, statedRates) : new Map<RateGroup, number>();
  let amount = zeroAmount(setup.exp);
  let surcharge: Amount | undefined;

  for (const rate of group.rates) {
    const index = pairs.get(rate) ?? -1;
    const statedCombo = statedRates[index];
    let applied = rate.combo;
    if (stated && !statedCombo) {
      const where = [...at, 'rates'];
      const base = showAmount(rate.base, setup.exp);
      audit.report(where, 'tax-rate-missing', `${relative(where)} has no ${rateLabel(rate.combo)} rate, though lines, discounts or charges apply it to ${base}`);
    } else if (statedCombo && !sameRate(statedCombo, rate.combo)) {
      // The rate states another percent than its lines: one fault, and its
      // amount is then checked against its own percent.
      reportPercent(rate, statedCombo, [...at, 'rates', index], setup, audit);
      applied = statedCombo;
    }
    const statedRate = index < 0 ? undefined : asRecord(asList(stated?.rates)[index]);
    const result = checkRate(rate, applied, statedRate, [...at, 'rates', index], setup, audit);
    if (result.amount) amount = addToTaxSum(setup, amount, result.amount);
    if (result.surcharge) {
      const sofar = surcharge ?? zeroAmount(setup.exp);
      surcharge = addToTaxSum(setup, sofar, result.surcharge);
    }
  }
  const paired = new Set(pairs.values());
  statedRates.forEach((combo, index) => {
    if (paired.has(index)) return;
    const where = [...at, 'rates', index];
    audit.report(where, 'tax-rate-unexpected', `${relative(where)} (${combo ? rateLabel(combo) : group.code}) is not applied by any line, discount or charge`);
  });

  const carriedAmount = audit.figure({
    path: [...at, 'amount'], code: 'tax-category-amount', stated: stated?.amount, expected: amount,
    explain: (x) => `the ${group.code} rate amounts add up to ${x}`,
  });
  const carriedSurcharge = audit.figure({
    path: [...at, 'surcharge'], code: 'tax-category-surcharge', stated: stated?.surcharge,
    expected: surcharge ?? (stated?.surcharge === undefined ? undefined : zeroAmount(setup.exp)),
    explain: (x) => `the ${group.code} rate surcharges add up to ${x}`,
  });
  return {
    amount: carriedAmount ?? amount,
    surcharge: surcharge && carriedSurcharge,
    retained: stated?.retained === true,
    informative: stated?.informative === true,
  };
}

// Which stated rate each computed one is: the one GOBL would have grouped it
// with, else one that differs only in its percent (or surcharge percent).
function pairRates(rates: readonly RateGroup[], stated: ReadonlyArray<Combo | undefined>): Map<RateGroup, number> {
  const pairs = new Map<RateGroup, number>();
  const taken = new Set<number>();
  const pair = (rate: RateGroup, matches: (combo: Combo) => boolean) => {
    const index = stated.findIndex((combo, i) => !taken.has(i) && combo !== undefined && matches(combo));
    if (index < 0) return;
    pairs.set(rate, index);
    taken.add(index);
  };
  for (const rate of rates) pair(rate, (combo) => sameRate(combo, rate.combo));
  for (const rate of rates) if (!pairs.has(rate)) pair(rate, (combo) => sameRateApartFromPercent(combo, rate.combo));
  return pairs;
}

function reportPercent(rate: RateGroup, stated: Combo, at: Segment[], setup: Setup, audit: Audit): void {
  const samePercent = stated.percent === undefined ? rate.combo.percent === undefined : rate.combo.percent?.eq(stated.percent) === true;
  const where = samePercent ? [...at, 'surcharge', 'percent'] : [...at, 'percent'];
  const statedText = samePercent ? stated.surchargeText : stated.percentText;
  const applied = samePercent ? `a surcharge of ${rate.combo.surchargeText ?? 'none'}` : rate.combo.percentText ?? 'no percent';
  const base = showAmount(rate.base, setup.exp);
  audit.report(where, 'tax-percent', `${relative(where)} is ${statedText ?? 'absent'} but lines, discounts or charges apply ${applied} to ${base} (${rateLabel(rate.combo)})`);
}

function checkRate(rate: RateGroup, applied: Combo, stated: Json | undefined, at: Segment[], setup: Setup, audit: Audit) {
  const label = rateLabel(rate.combo);
  const base = audit.figure({
    path: [...at, 'base'], code: 'tax-base', stated: stated?.base, expected: rate.base,
    explain: (x) => `the amounts taxed at ${label} add up to ${x}`,
  }) ?? rate.base;
  // A rate without a percent (exempt, reverse charge…) carries no tax and adds nothing to its category.
  const { percent, surcharge: surchargePercent } = applied;
  const amount = audit.figure({
    path: [...at, 'amount'], code: 'tax-amount', stated: stated?.amount,
    expected: percent ? percentOf(base, percent) : zeroAmount(setup.exp),
    explain: (x) => (percent ? `${applied.percentText} of base ${showAmount(base, setup.exp)} = ${x}` : `${label} has no percent, so ${x}`),
  });
  let surcharge: Amount | undefined;
  if (percent && surchargePercent) {
    surcharge = audit.figure({
      path: [...at, 'surcharge', 'amount'], code: 'tax-surcharge', stated: asRecord(stated?.surcharge)?.amount,
      expected: percentOf(base, surchargePercent),
      explain: (x) => `surcharge ${applied.surchargeText} of base ${showAmount(base, setup.exp)} = ${x}`,
    });
  }
  return { amount: percent ? amount : undefined, surcharge };
}
