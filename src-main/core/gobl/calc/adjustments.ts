// Document-level discounts and charges (GOBL's bill/discounts.go, bill/charges.go): a percent of
// the line sum (or of the adjustment's own base), the rounding rule applied, and a sum that is
// present only when the list is.
import type { Node } from '../engine/types.ts';
import type { Amount } from '../num/index.ts';
import { EXTRA_PRECISION, applyRule } from './env.ts';
import type { CalcEnv } from './env.ts';
import { isNode, listOf, readAmount, readAmountOrZero, takePercent } from './fields.ts';

export interface Adjustment {
  node: Node;
  path: string;
  amount: Amount;
  /** The stated base's decimals: the final rounding keeps that many (else the currency's). */
  baseExp: number | undefined;
}

export interface Adjustments {
  list: Adjustment[];
  /** Σ amounts; undefined when the document has no such list. */
  sum: Amount | undefined;
}

/** Calculates `doc[key]` ('discounts' or 'charges') against the line sum. */
export function calculateAdjustments(doc: Node, key: string, lineSum: Amount, env: CalcEnv): Adjustments {
  const raw = listOf(doc, key);
  const list: Adjustment[] = [];
  raw.forEach((node, i) => {
    if (!isNode(node)) return;
    node.i = i + 1;
    const path = `$.${key}[${i}]`;
    const percent = takePercent(node, 'percent', path);
    const base = readAmount(node, 'base', path);
    if (base) node.base = base.toString();
    let amount: Amount;
    if (percent) {
      amount = percent.of(base ? applyRule(env, base.rescaleUp(env.exp + EXTRA_PRECISION)) : lineSum);
    } else {
      amount = readAmountOrZero(node, 'amount', path);
    }
    list.push({ node, path, amount: applyRule(env, amount), baseExp: base?.exp });
  });
  if (raw.length === 0) return { list, sum: undefined };
  let sum = env.zero;
  for (const a of list) sum = sum.matchPrecision(a.amount).add(a.amount);
  return { list, sum };
}

/** Writes the amounts back; with `round`, no finer than the base, or else the currency. */
export function finishAdjustments(adjustments: Adjustments, env: CalcEnv, round: boolean): void {
  for (const a of adjustments.list) {
    const amount = round ? a.amount.rescaleDown(a.baseExp ?? env.exp) : a.amount;
    a.node.amount = amount.toString();
  }
}
