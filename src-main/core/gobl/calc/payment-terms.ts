// A bill's payment details against its rounded payable: advances (a percent of payable, or as
// given) and due-date amounts, all at the currency's decimals.
import type { Node } from '../engine/types.ts';
import type { Amount } from '../num/index.ts';
import type { CalcEnv } from './env.ts';
import { isNode, listOf, readAmountOrZero, takePercent } from './fields.ts';

/** Settles advances and due dates; returns Σ advances, or undefined when there are none. */
export function calculatePaymentDetails(payment: Node, payable: Amount, env: CalcEnv): Amount | undefined {
  const advances = listOf(payment, 'advances');
  let total: Amount | undefined;
  if (advances.length > 0) {
    total = env.zero;
    advances.forEach((a, i) => {
      if (!isNode(a)) return;
      const path = `$.payment.advances[${i}]`;
      const percent = takePercent(a, 'percent', path);
      const amount = (percent ? percent.of(payable) : readAmountOrZero(a, 'amount', path)).rescale(env.exp);
      a.amount = amount.toString();
      total = total!.add(amount);
    });
  }
  const terms = payment.terms;
  if (isNode(terms)) {
    listOf(terms, 'due_dates').forEach((d, i) => {
      if (!isNode(d)) return;
      const path = `$.payment.terms.due_dates[${i}]`;
      const percent = takePercent(d, 'percent', path);
      const amount = percent && !percent.isZero() ? percent.of(payable) : readAmountOrZero(d, 'amount', path);
      d.amount = amount.rescale(env.exp).toString();
    });
  }
  return total;
}
