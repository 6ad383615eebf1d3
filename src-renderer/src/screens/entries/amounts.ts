import { negate, sumDecimals } from '../../format/decimal.ts';

type Amounts = { snippet: Record<string, string> };
export type AmountField = 'net' | 'tax' | 'total';

/** Document types whose amounts count against the others: a credit note reads and sums negative. */
const NEGATIVE_TYPES = new Set(['credit-note']);

export const countsNegative = (entry: Amounts): boolean => NEGATIVE_TYPES.has(entry.snippet.type ?? '');

/** An amount as the list shows it: the document's figure, negative for a credit note. */
export function signedAmount(entry: Amounts, field: AmountField): string | undefined {
  const value = entry.snippet[field];
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
