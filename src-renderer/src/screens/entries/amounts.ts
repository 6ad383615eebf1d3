import { negate, sumDecimals } from '../../format/decimal.ts';

/** An entry's figures, from its snippet as the hosted service shapes it (GOBL's totals by their GOBL names). */
type Amounts = {
  doc_schema?: string;
  snippet: { type?: string; currency?: string; total?: string; tax?: string; total_with_tax?: string; payable?: string };
};
export type AmountField = 'net' | 'tax' | 'total';

/**
 * A figure as the list names it: net is GOBL's `total` (before tax), total is what is
 * payable (else the total with tax); a payment's snippet has its amount as `total`.
 */
export function amountOf(entry: Amounts, field: AmountField): string | undefined {
  const s = entry.snippet;
  if (field === 'tax') return s.tax;
  const payment = (entry.doc_schema ?? '').endsWith('/bill/payment');
  if (field === 'net') return payment ? undefined : s.total;
  return payment ? s.total : (s.payable ?? s.total_with_tax);
}

/** Document types whose amounts count against the others: a credit note reads and sums negative. */
const NEGATIVE_TYPES = new Set(['credit-note']);

export const countsNegative = (entry: Amounts): boolean => NEGATIVE_TYPES.has(entry.snippet.type ?? '');

/** An amount as the list shows it: the document's figure, negative for a credit note. */
export function signedAmount(entry: Amounts, field: AmountField): string | undefined {
  const value = amountOf(entry, field);
  if (value === undefined || value === '') return undefined;
  return countsNegative(entry) ? negate(value) : value;
}

export interface CurrencySums {
  currency: string;
  count: number;
  net: string;
  tax: string;
  total: string;
}

/** Net, tax and total of these entries per currency, exactly; entries without a currency are left out. */
export function sumsByCurrency(entries: Iterable<Amounts>): CurrencySums[] {
  const groups = new Map<string, Amounts[]>();
  for (const entry of entries) {
    const currency = entry.snippet.currency;
    if (!currency) continue;
    const list = groups.get(currency);
    if (list) list.push(entry);
    else groups.set(currency, [entry]);
  }
  return [...groups.entries()]
    .map(([currency, list]) => ({
      currency,
      count: list.length,
      net: sumDecimals(list.map((e) => signedAmount(e, 'net'))),
      tax: sumDecimals(list.map((e) => signedAmount(e, 'tax'))),
      total: sumDecimals(list.map((e) => signedAmount(e, 'total'))),
    }))
    .sort((a, b) => b.count - a.count || a.currency.localeCompare(b.currency));
}
