// bill/invoice
import { z } from 'zod';
import {
  addonList, code, currencyCode, date, key, listOf, meta, object, regimeCode, time, uuid,
} from './primitives.ts';
import { exchangeRate } from './currency.ts';
import { attachment, documentRef, note, party } from './org.ts';
import { billTax, charge, deliveryDetails, discount, line, ordering, paymentDetails, totals } from './bill.ts';

export const INVOICE_TYPES = ['standard', 'proforma', 'corrective', 'credit-note', 'debit-note', 'other'] as const;

export const invoice = object({
  $regime: regimeCode.nullish(),
  $addons: addonList.nullish(),
  $tags: listOf(key).nullish(),
  uuid: uuid.nullish(),
  type: z.enum(INVOICE_TYPES, { error: `must be one of ${INVOICE_TYPES.join(', ')}` }),
  series: code.nullish(),
  code: code.nullish(),
  issue_date: date,
  issue_time: time.nullish(),
  op_date: date.nullish(),
  value_date: date.nullish(),
  currency: currencyCode,
  exchange_rates: listOf(exchangeRate).nullish(),
  preceding: listOf(documentRef).nullish(),
  tax: billTax.nullish(),
  supplier: party,
  customer: party.nullish(),
  lines: listOf(line).nullish(),
  discounts: listOf(discount).nullish(),
  charges: listOf(charge).nullish(),
  ordering: ordering.nullish(),
  payment: paymentDetails.nullish(),
  delivery: deliveryDetails.nullish(),
  totals,
  notes: listOf(note).nullish(),
  complements: listOf(object({})).nullish(),
  meta: meta.nullish(),
  attachments: listOf(attachment).nullish(),
});
