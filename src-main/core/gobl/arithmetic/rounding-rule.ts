// Which of GOBL's two rounding rules an invoice was calculated with.
//
// precise:  lines and taxes keep two decimals more than the currency and only
//           the totals are rounded (GOBL's default);
// currency: every amount is rounded to the currency before it is summed.
export type RoundingRule = 'precise' | 'currency';

// Regimes whose default is not `precise` (GOBL's regime definitions); the
// invoice's own `tax.rounding` overrides them.
const REGIME_DEFAULTS: ReadonlyMap<string, RoundingRule> = new Map([['EL', 'currency']]);

// Earlier GOBL releases named the same two rules differently.
const RULE_NAMES: ReadonlyMap<string, RoundingRule> = new Map([
  ['precise', 'precise'],
  ['currency', 'currency'],
  ['sum-then-round', 'precise'],
  ['round-then-sum', 'currency'],
]);

/**
 * The rules to try, most likely first: only the stated one when the invoice
 * names it, otherwise its regime's default and then the other, because the
 * regime defaults change between GOBL releases and a figure that one of the
 * two rules explains is not an error.
 */
export function roundingRulesFor(doc: Record<string, unknown>): RoundingRule[] {
  const tax = doc.tax;
  const stated = typeof tax === 'object' && tax !== null ? (tax as Record<string, unknown>).rounding : undefined;
  const named = typeof stated === 'string' ? RULE_NAMES.get(stated) : undefined;
  if (named) return [named];
  const preferred = REGIME_DEFAULTS.get(regimeOf(doc) ?? '') ?? 'precise';
  return preferred === 'precise' ? ['precise', 'currency'] : ['currency', 'precise'];
}

function regimeOf(doc: Record<string, unknown>): string | undefined {
  if (typeof doc.$regime === 'string') return doc.$regime;
  const supplier = doc.supplier as { tax_id?: { country?: unknown } } | undefined;
  const country = supplier?.tax_id?.country;
  return typeof country === 'string' ? country : undefined;
}
