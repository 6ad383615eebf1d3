// currency/amount and currency/exchange-rate.
import { amount, currencyCode, dateTime, key, object, text } from './primitives.ts';

export const currencyAmount = object({
  label: text.nullish(),
  currency: currencyCode,
  value: amount,
});

export const exchangeRate = object({
  from: currencyCode,
  to: currencyCode,
  at: dateTime.nullish(),
  source: key.nullish(),
  amount,
});
