import type { Amount } from './amount.ts';
import { add, rescale, rescaleUp } from './amount.ts';
import type { RoundingRule } from './rounding-rule.ts';

/** What every calculation on one invoice depends on. */
export type Setup = {
  currency: string;
  /** decimals of the invoice currency */
  exp: number;
  rule: RoundingRule;
  /** the tax category already included in prices (`tax.prices_include`), if any */
  pricesInclude: string | undefined;
};

// GOBL keeps line and tax figures this many decimals beyond the currency's
// while calculating, under either rule.
export const EXTRA_DECIMALS = 2;

/** GOBL's ApplyRoundingRule: round to the currency now, or only make sure the currency's decimals are there. */
export function applyRule(setup: Setup, a: Amount): Amount {
  return setup.rule === 'currency' ? rescale(a, setup.exp) : rescaleUp(a, setup.exp);
}

/**
 * GOBL's running tax sums (rate bases, category amounts, the tax sum): under
 * the precise rule the sum takes on the decimals of what is added to it; under
 * the currency rule it stays at the currency's, rounding each addend.
 */
export function addToTaxSum(setup: Setup, sofar: Amount, next: Amount): Amount {
  return add(setup.rule === 'precise' ? rescaleUp(sofar, next.exp) : sofar, next);
}
