// Currency conversion with the document's exchange rates, as GOBL's currency.Convert does: the
// first rate from → to, amount × rate, rounded to the target currency's decimals.
import { BuildError } from '../engine/types.ts';
import type { Node } from '../engine/types.ts';
import type { Amount } from '../num/index.ts';
import { exponentOf } from './env.ts';
import { isNode, listOf, nonEmptyString, readAmountOrZero } from './fields.ts';

export interface ExchangeRate {
  from: string;
  to: string;
  amount: Amount;
}

export function readExchangeRates(doc: Node): ExchangeRate[] {
  const out: ExchangeRate[] = [];
  listOf(doc, 'exchange_rates').forEach((r, i) => {
    if (!isNode(r)) return;
    out.push({
      from: nonEmptyString(r.from),
      to: nonEmptyString(r.to),
      amount: readAmountOrZero(r, 'amount', `$.exchange_rates[${i}]`),
    });
  });
  return out;
}

export function findRate(rates: ExchangeRate[], from: string, to: string): ExchangeRate | undefined {
  if (from === to) return undefined;
  return rates.find((r) => r.from === from && r.to === to);
}

export function convert(rate: ExchangeRate, amount: Amount): Amount {
  return amount.multiply(rate.amount).rescale(exponentOf(rate.to));
}

export function missingRate(from: string, to: string, path: string): BuildError {
  return new BuildError([{ code: 'missing-exchange-rate', message: `no exchange rate found from '${from}' to '${to}'`, paths: [path] }]);
}
