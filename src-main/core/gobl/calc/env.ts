// What every step of a bill calculation shares: the document currency, its exponent and the
// rounding rule (GOBL's `precise` or `currency`).
import { currencyExponent } from '../defs/index.ts';
import type { RegimeDef } from '../defs/types.ts';
import { Amount } from '../num/index.ts';

/** Decimals GOBL adds to prices and tax bases under the precise rule. */
export const EXTRA_PRECISION = 2;

export interface CalcEnv {
  currency: string;
  /** The currency's decimals (EUR 2, JPY 0…). */
  exp: number;
  /** True for the `precise` rule (GOBL's default), false for `currency`. */
  precise: boolean;
  /** Zero at the currency's exponent. */
  zero: Amount;
}

/** The rule's name, with the names releases before v0.212 used mapped to today's. */
export function roundingRuleName(docRule: unknown, regime: RegimeDef | undefined): string {
  let rule = typeof docRule === 'string' ? docRule : '';
  if (rule === 'sum-then-round') rule = 'precise';
  else if (rule === 'round-then-sum') rule = 'currency';
  if (rule !== '') return rule;
  return regime?.calculator_rounding_rule || 'precise';
}

export function calcEnv(currency: string, rule: string): CalcEnv {
  const exp = exponentOf(currency);
  return { currency, exp, precise: rule !== 'currency', zero: new Amount(0, exp) };
}

/** A currency's decimals; 2 for a code GOBL does not know. */
export function exponentOf(currency: string): number {
  return currencyExponent(currency) ?? 2;
}

/** GOBL's ApplyRoundingRule: currency → exactly the currency's decimals; precise → at least them. */
export function applyRule(env: CalcEnv, a: Amount): Amount {
  return env.precise ? a.rescaleUp(env.exp) : a.rescale(env.exp);
}

/** GOBL's matchRoundingPrecision: under precise an accumulator widens to what it adds. */
export function widenFor(env: CalcEnv, acc: Amount, next: Amount): Amount {
  return env.precise ? acc.matchPrecision(next) : acc;
}
