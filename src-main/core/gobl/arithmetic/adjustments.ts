// Document-level discounts and charges: a percent of the line sum (or of their
// own base) or a fixed amount, each with its own taxes.
import { add, negate, parseAmount, parsePercent, percentOf, rescaleUp, showAmount, zeroAmount } from './amount.ts';
import type { Amount } from './amount.ts';
import type { Audit } from './audit.ts';
import { asList, asRecord } from './json.ts';
import type { Json } from './json.ts';
import type { TaxedAmount } from './lines.ts';
import { applyRule, EXTRA_DECIMALS } from './setup.ts';
import type { Setup } from './setup.ts';

export type AdjustmentKind = 'discounts' | 'charges';

export type Adjustments = {
  /** what they add to the tax bases (discounts negative) */
  taxed: TaxedAmount[];
  /** their sum, or undefined when the document has none */
  sum: Amount | undefined;
  /** false when one of them could not be read, so their sum is unknown */
  complete: boolean;
};

export function checkAdjustments(kind: AdjustmentKind, doc: Json, lineSum: Amount | undefined, setup: Setup, audit: Audit): Adjustments {
  const list = asList(doc[kind]);
  const code = kind === 'discounts' ? 'discount-amount' : 'charge-amount';
  const taxed: TaxedAmount[] = [];
  let sum: Amount | undefined = list.length > 0 ? zeroAmount(setup.exp) : undefined;
  let complete = true;

  list.forEach((value, index) => {
    const adjustment = asRecord(value);
    if (!adjustment) return;
    const amount = checkAdjustment(adjustment, [kind, index, 'amount'], code, lineSum, setup, audit);
    if (!amount) {
      complete = false;
      return;
    }
    // GOBL sums them keeping the most decimals any of them has.
    sum = sum && add(rescaleUp(sum, amount.exp), amount);
    taxed.push({ total: kind === 'discounts' ? negate(amount) : amount, taxes: adjustment.taxes });
  });
  return { taxed, sum: complete ? sum : undefined, complete };
}

function checkAdjustment(
  adjustment: Json,
  path: Array<string | number>,
  code: string,
  lineSum: Amount | undefined,
  setup: Setup,
  audit: Audit,
): Amount | undefined {
  const percent = parsePercent(adjustment.percent);
  if (!percent) {
    const stated = parseAmount(adjustment.amount);
    return stated && applyRule(setup, stated);
  }
  const ownBase = parseAmount(adjustment.base);
  const base = ownBase ? applyRule(setup, rescaleUp(ownBase, setup.exp + EXTRA_DECIMALS)) : lineSum;
  return audit.figure({
    path,
    code,
    stated: adjustment.amount,
    expected: base && applyRule(setup, percentOf(base, percent)),
    explain: (x) => `${String(adjustment.percent)} of ${ownBase ? 'base' : 'the line sum'} ${base ? showAmount(base, setup.exp) : '?'} = ${x}`,
  });
}
