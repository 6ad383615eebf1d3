import type { Fault } from '../fault.ts';
import { parseAmount } from './amount.ts';
import { createAudit } from './audit.ts';
import type { Choice } from './audit.ts';
import { currencyExponent } from './currencies.ts';
import { asRecord, asText } from './json.ts';
import type { Json } from './json.ts';
import { roundingRulesFor } from './rounding-rule.ts';
import type { Setup } from './setup.ts';
import { checkFigures } from './totals.ts';

// Each disagreement is settled by running the checks again; past this many the
// rest simply follow the recomputed figures (a document this broken has
// enough faults to act on).
const MAX_SETTLED = 40;

/**
 * Recomputes an invoice's figures the way GOBL calculates them (line sums and
 * totals, discounts and charges, tax bases, amounts and surcharges, retained
 * taxes, totals, payable, advances and due amounts) with decimal arithmetic,
 * and returns a fault, at the stated figure's path, for each one that differs
 * at its own precision. A figure that depends on something the document does
 * not let us determine is not reported.
 */
export function checkInvoiceArithmetic(doc: unknown): Fault[] {
  const invoice = asRecord(doc);
  if (!invoice) return [];
  const currency = asText(invoice.currency);
  const exp = currencyExponent(currency) ?? parseAmount(asRecord(invoice.totals)?.sum)?.exp;
  if (currency === undefined || exp === undefined) return [];
  const pricesInclude = asText(asRecord(invoice.tax)?.prices_include);

  let best: Fault[] | undefined;
  for (const rule of roundingRulesFor(invoice)) {
    const faults = settle(invoice, { currency, exp, rule, pricesInclude });
    if (!best || faults.length < best.length) best = faults;
    if (best.length === 0) break;
  }
  return best ?? [];
}

// Runs the checks, then settles each disagreement in turn: whether the
// figures after it follow the stated or the recomputed value, whichever leaves
// fewer faults (the recomputed one on a tie).
function settle(doc: Json, setup: Setup): Fault[] {
  const choices = new Map<string, Choice>();
  let current = run(doc, setup, choices);
  for (;;) {
    const open = current.disagreements.find((path) => !choices.has(path));
    if (open === undefined || choices.size >= MAX_SETTLED) return current.faults;
    const followingStated = run(doc, setup, new Map(choices).set(open, 'stated'));
    if (followingStated.faults.length < current.faults.length) {
      choices.set(open, 'stated');
      current = followingStated;
    } else choices.set(open, 'expected');
  }
}

function run(doc: Json, setup: Setup, choices: ReadonlyMap<string, Choice>) {
  const audit = createAudit(choices);
  checkFigures(doc, setup, audit);
  return audit;
}
