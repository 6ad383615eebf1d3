// bill/payment: a payment request, advice or receipt against invoices.
import { z } from 'zod';
import {
  addonList, amount, bool, code, currencyCode, date, extensions, integer, key, listOf, meta, object, regimeCode, text,
  time, uuid,
} from './primitives.ts';
import { exchangeRate } from './currency.ts';
import { documentRef, note, party } from './org.ts';
import { record } from './pay.ts';
import { taxTotal } from './tax.ts';
import { ordering } from './bill.ts';

export const PAYMENT_TYPES = ['request', 'advice', 'receipt'] as const;

const paymentLine = object({
  uuid: uuid.nullish(),
  i: integer,
  refund: bool.nullish(),
  document: documentRef.nullish(),
  installment: integer.nullish(),
  description: text.nullish(),
  payable: amount.nullish(),
  advances: amount.nullish(),
  amount,
  due: amount.nullish(),
  tax: taxTotal.nullish(),
  notes: listOf(note).nullish(),
});

export const payment = object({
  $regime: regimeCode.nullish(),
  $addons: addonList.nullish(),
  $tags: listOf(key).nullish(),
  uuid: uuid.nullish(),
  type: z.enum(PAYMENT_TYPES, { error: `must be one of ${PAYMENT_TYPES.join(', ')}` }),
  series: code.nullish(),
  code: code.nullish(),
  issue_date: date,
  issue_time: time.nullish(),
  value_date: date.nullish(),
  currency: currencyCode,
  exchange_rates: listOf(exchangeRate).nullish(),
  ext: extensions.nullish(),
  preceding: listOf(documentRef).nullish(),
  supplier: party,
  customer: party.nullish(),
  payee: party.nullish(),
  ordering: ordering.nullish(),
  lines: listOf(paymentLine),
  methods: listOf(record),
  total: amount,
  notes: listOf(note).nullish(),
  complements: listOf(object({})).nullish(),
  meta: meta.nullish(),
});
