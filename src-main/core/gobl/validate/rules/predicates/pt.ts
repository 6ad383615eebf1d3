// Portugal (regimes/pt): NIF check digit; document dates in order with the issue date.
import { onCode } from './table.ts';
import type { PredicateTable } from './table.ts';
import { notAfter, notBefore } from './dates.ts';
import { isNil, list, obj } from '../values.ts';
import type { Check } from '../model.ts';

const PREFIXES = new Set(['1', '2', '3', '5', '6', '8', '45', '70', '71', '72', '74', '75', '77', '78', '79', '90', '91', '98', '99']);

function validNif(code: string): boolean {
  if (!/^\d{9}$/.test(code) || (!PREFIXES.has(code[0]) && !PREFIXES.has(code.slice(0, 2)))) return false;
  let sum = 0;
  for (let i = 1; i < 9; i++) sum += (code.charCodeAt(i - 1) - 48) * (10 - i);
  const r = sum % 11;
  return Number(code[8]) === (r < 2 ? 0 : 11 - r);
}

/** Every listed date (nil ones skipped) stands in `ok` relation to the invoice issue date. */
function datesAgainstIssue(pick: (inv: Record<string, any>) => unknown[], ok: (date: unknown, issue: unknown) => boolean): Check {
  return (v) => {
    const inv = obj(v);
    if (!inv) return true;
    return pick(inv).every((d) => isNil(d) || ok(d, inv.issue_date));
  };
}

export const pt: PredicateTable = {
  valid: onCode(validNif),
  'value date not after issue date': datesAgainstIssue((inv) => [inv.value_date], notAfter),
  'operation date not after issue date': datesAgainstIssue((inv) => [inv.op_date], notAfter),
  'preceding dates not after issue date': datesAgainstIssue((inv) => list(inv.preceding).map((p) => obj(p)?.issue_date), notAfter),
  'advance dates not after issue date': datesAgainstIssue((inv) => list(obj(inv.payment)?.advances).map((a) => obj(a)?.date), notAfter),
  'due dates not before issue date': datesAgainstIssue((inv) => list(obj(obj(inv.payment)?.terms)?.due_dates).map((d) => obj(d)?.date), notBefore),
};
