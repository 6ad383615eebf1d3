// bill/*: the parts invoices (and orders, deliveries, payments) share.
import { z } from 'zod';
import { amount, code, date, extensions, integer, key, listOf, meta, object, percentage, text, unit, uuid, period } from './primitives.ts';
import { documentRef, identity, item, note, party } from './org.ts';
import { instructions, record, terms } from './pay.ts';
import { taxNote, taxSet, taxTotal } from './tax.ts';

const lineDiscount = object({
  key: key.nullish(),
  code: code.nullish(),
  reason: text.nullish(),
  base: amount.nullish(),
  percent: percentage.nullish(),
  amount,
  ext: extensions.nullish(),
});

const lineCharge = object({
  key: key.nullish(),
  code: code.nullish(),
  reason: text.nullish(),
  base: amount.nullish(),
  percent: percentage.nullish(),
  quantity: amount.nullish(),
  unit: unit.nullish(),
  rate: amount.nullish(),
  amount,
  ext: extensions.nullish(),
});

const subLine = object({
  uuid: uuid.nullish(),
  i: integer,
  quantity: amount,
  identifier: identity.nullish(),
  period: period.nullish(),
  order: code.nullish(),
  cost: code.nullish(),
  item,
  sum: amount.nullish(),
  discounts: listOf(lineDiscount).nullish(),
  charges: listOf(lineCharge).nullish(),
  total: amount.nullish(),
  notes: listOf(note).nullish(),
});

export const line = object({
  uuid: uuid.nullish(),
  i: integer,
  quantity: amount,
  identifier: identity.nullish(),
  period: period.nullish(),
  order: code.nullish(),
  cost: code.nullish(),
  item,
  breakdown: listOf(subLine).nullish(),
  sum: amount.nullish(),
  discounts: listOf(lineDiscount).nullish(),
  charges: listOf(lineCharge).nullish(),
  taxes: taxSet.nullish(),
  total: amount.nullish(),
  substituted: listOf(subLine).nullish(),
  seller: party.nullish(),
  notes: listOf(note).nullish(),
  ext: extensions.nullish(),
});

// bill/discount and bill/charge have the same shape at document level.
const documentAdjustment = object({
  uuid: uuid.nullish(),
  i: integer,
  key: key.nullish(),
  code: code.nullish(),
  reason: text.nullish(),
  base: amount.nullish(),
  percent: percentage.nullish(),
  amount,
  taxes: taxSet.nullish(),
  ext: extensions.nullish(),
  meta: meta.nullish(),
});
export const discount = documentAdjustment;
export const charge = documentAdjustment;

export const totals = object({
  sum: amount,
  discount: amount.nullish(),
  charge: amount.nullish(),
  tax_included: amount.nullish(),
  total: amount,
  taxes: taxTotal.nullish(),
  tax: amount.nullish(),
  total_with_tax: amount,
  retained_tax: amount.nullish(),
  rounding: amount.nullish(),
  payable: amount,
  advance: amount.nullish(),
  due: amount.nullish(),
});

export const billTax = object({
  prices_include: code.nullish(),
  rounding: z.enum(['precise', 'currency'], { error: 'must be "precise" or "currency"' }).nullish(),
  point: z.enum(['issue', 'delivery', 'payment'], { error: 'must be "issue", "delivery" or "payment"' }).nullish(),
  ext: extensions.nullish(),
  notes: listOf(taxNote).nullish(),
  meta: meta.nullish(),
});

const documentRefs = listOf(documentRef).nullish();

export const ordering = object({
  code: code.nullish(),
  identities: listOf(identity).nullish(),
  cost: code.nullish(),
  period: period.nullish(),
  buyer: party.nullish(),
  seller: party.nullish(),
  issuer: party.nullish(),
  projects: documentRefs,
  contracts: documentRefs,
  purchases: documentRefs,
  sales: documentRefs,
  receiving: documentRefs,
  despatch: documentRefs,
  tender: documentRefs,
});

export const paymentDetails = object({
  payee: party.nullish(),
  payer: party.nullish(),
  terms: terms.nullish(),
  advances: listOf(record).nullish(),
  instructions: instructions.nullish(),
});

export const deliveryDetails = object({
  receiver: party.nullish(),
  identities: listOf(identity).nullish(),
  date: date.nullish(),
  period: period.nullish(),
  meta: meta.nullish(),
});
