// bill: invoice, line and payment predicates.
import type { PredicateTable } from './table.ts';
import { hasTaxIdCode } from './party.ts';
import { addDec, compareDec, mulDec, parseDec, roundDec, subDec } from '../decimal.ts';
import type { Dec } from '../decimal.ts';
import { currencyExponent } from '../../../defs/index.ts';
import { list, obj, str } from '../values.ts';

const itemHasPrice = (v: unknown): boolean => {
  const price = obj(obj(v)?.item)?.price;
  return price !== undefined && price !== null;
};

// currency.Convert: same currency as is; otherwise a from→to rate, the product rescaled to
// the target currency.
function convert(rates: unknown, from: string, to: string, amount: Dec): Dec | undefined {
  if (from === to) return amount;
  const rate = list(rates).find((r) => str(obj(r)?.from) === from && str(obj(r)?.to) === to);
  const factor = parseDec(obj(rate)?.amount);
  if (!factor) return undefined;
  const product = roundDec(mulDec(amount, factor), amount.e);
  return roundDec(product, currencyExponent(to) ?? 2);
}

/** A payment's methods, converted to its currency, add up to its total. */
function methodsSum(v: unknown): boolean {
  const pmt = obj(v);
  const methods = list(pmt?.methods);
  if (!pmt || methods.length === 0) return true;
  const total = parseDec(pmt.total) ?? { m: 0n, e: 0 };
  const cur = str(pmt.currency);
  const exp = currencyExponent(cur) ?? total.e;
  let sum: Dec = { m: 0n, e: exp };
  for (const method of methods) {
    const m = obj(method);
    if (!m) continue;
    const converted = convert(pmt.exchange_rates, str(m.currency) || cur, cur, parseDec(m.amount) ?? { m: 0n, e: 0 });
    if (!converted) return false;
    sum = addDec(sum, roundDec(converted, sum.e));
    sum = roundDec(sum, exp);
  }
  return compareDec(sum, total) === 0;
}

function advancesWithinPayable(v: unknown): boolean {
  const pl = obj(v);
  if (!pl) return false;
  const payable = parseDec(pl.payable);
  const advances = parseDec(pl.advances);
  return !payable || !advances || compareDec(advances, payable) <= 0;
}

function amountWithinLimit(v: unknown): boolean {
  const pl = obj(v);
  if (!pl) return false;
  const payable = parseDec(pl.payable);
  if (!payable) return true;
  const advances = parseDec(pl.advances);
  const max = advances ? subDec(payable, advances) : payable;
  if (max.m < 0n) return true;
  return compareDec(parseDec(pl.amount) ?? { m: 0n, e: 0 }, max) <= 0;
}

export const bill: PredicateTable = {
  'has tax point': (v) => str(obj(obj(v)?.tax)?.point) !== '',
  'has tax ID code': (v) => obj(v) !== undefined && hasTaxIdCode(v),
  'no discounts or charges': (v) => obj(v) !== undefined && list(obj(v)?.discounts).length === 0 && list(obj(v)?.charges).length === 0,
  'item has price': itemHasPrice,
  'methods sum': methodsSum,
  'advances within payable': advancesWithinPayable,
  'amount within limit': amountWithinLimit,
};
