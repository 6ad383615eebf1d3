// pay/*: payment terms, instructions and records of payments made.
import { z } from 'zod';
import { amount, code, currencyCode, date, extensions, key, listOf, meta, object, percentage, text, uuid } from './primitives.ts';
import { address } from './org.ts';

const card = object({
  first6: text.nullish(),
  last4: text.nullish(),
  holder: text.nullish(),
});

const creditTransfer = object({
  iban: text.nullish(),
  bic: text.nullish(),
  number: text.nullish(),
  name: text.nullish(),
  branch: address.nullish(),
});

const directDebit = object({
  ref: text.nullish(),
  creditor: text.nullish(),
  account: text.nullish(),
});

const online = object({
  key: key.nullish(),
  label: text.nullish(),
  url: text,
});

export const instructions = object({
  key,
  detail: text.nullish(),
  ref: code.nullish(),
  credit_transfer: listOf(creditTransfer).nullish(),
  card: card.nullish(),
  direct_debit: directDebit.nullish(),
  online: listOf(online).nullish(),
  notes: text.nullish(),
  ext: extensions.nullish(),
  meta: meta.nullish(),
});

// pay/record: an advance on an invoice, or a payment method in a payment.
export const record = object({
  uuid: uuid.nullish(),
  date: date.nullish(),
  key: key.nullish(),
  ref: text.nullish(),
  description: text.nullish(),
  percent: percentage.nullish(),
  amount,
  currency: currencyCode.nullish(),
  card: card.nullish(),
  credit_transfer: creditTransfer.nullish(),
  direct_debit: directDebit.nullish(),
  online: listOf(online).nullish(),
  ext: extensions.nullish(),
  meta: meta.nullish(),
});

const dueDate = object({
  date,
  notes: text.nullish(),
  amount,
  percent: percentage.nullish(),
  currency: currencyCode.nullish(),
});

const TERM_KEYS = [
  'end-of-month', 'due-date', 'deferred', 'proximo', 'instant', 'elective', 'pending', 'advanced', 'delivery', 'undefined',
] as const;

export const terms = object({
  key: z.enum(TERM_KEYS, { error: `must be one of ${TERM_KEYS.join(', ')}` }).nullish(),
  due_dates: listOf(dueDate).nullish(),
  notes: text.nullish(),
  ext: extensions.nullish(),
});
