import { v7 as uuidv7 } from 'uuid';
import { loadEnvelope } from '../fixtures/gobl/load.ts';

export interface Variant {
  code: string;
  series?: string;
  supplier?: string;
  customer?: string;
  issue_date?: string;
  due_date?: string;
  type?: 'standard' | 'credit-note';
  /** quantity × 10.00 + 21% VAT */
  quantity?: number;
  /** a bare price, to get odd cents */
  price?: string;
}

/**
 * A Dutch invoice (GOBL builds its totals) with what a list test varies: number,
 * parties, dates, type and amount. Net = quantity × price, tax = 21 % of it.
 */
export function invoice(v: Variant): Record<string, unknown> {
  const doc: any = structuredClone(loadEnvelope('nl-invoice.json').doc);
  delete doc.totals;
  doc.uuid = uuidv7();
  doc.code = v.code;
  if (v.series === undefined) delete doc.series;
  else doc.series = v.series;
  if (v.supplier) doc.supplier.name = v.supplier;
  if (v.customer) doc.customer.name = v.customer;
  if (v.issue_date) doc.issue_date = v.issue_date;
  if (v.type === 'credit-note') {
    doc.type = 'credit-note';
    doc.preceding = [{ code: 'ORIG-1', issue_date: '2022-01-01' }];
  }
  if (v.due_date) doc.payment = { terms: { due_dates: [{ date: v.due_date, percent: '100%' }] } };
  else delete doc.payment;
  doc.lines = [{ quantity: String(v.quantity ?? 1), item: { name: `Work for ${v.code}`, price: v.price ?? '10.00' }, taxes: [{ cat: 'VAT', rate: 'general' }] }];
  return doc;
}

