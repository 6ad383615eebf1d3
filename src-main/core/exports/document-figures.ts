// The figures of one stored document, as an accountant's import reads them: who, when, which
// number, and the amounts by tax rate. Read from the envelope as GOBL built it; anything
// missing stays empty rather than guessed. Credit notes reduce turnover: their amounts are
// negative here, as accounting software expects them.
import { documentNumber, obj, objects, str } from '../pdf/gobl-read.ts';
import type { EntryRow } from '../silo/entry-view.ts';
import { isDecimal, negateDecimal, percentNumber } from './decimal-text.ts';
import { documentText } from '../silo/packed-document.ts';
import { parseStoredJson } from '../api/json-in-turns.ts';
import { schemaFromStored } from '../silo/stored-schema.ts';

export interface RateFigures {
  category: string;
  /** GOBL's tax key (standard, zero, exempt, reverse-charge…) */
  key: string;
  /** the regime's rate name (general, reduced…) when the document names it */
  rate: string;
  /** "21.0" for 21.0 %; empty for a rate without a percent (exempt) */
  percent: string;
  base: string;
  /** the tax of this rate as it moves the total: a retained tax (withholding) is negative */
  amount: string;
  retained: boolean;
}

export interface DocumentFigures {
  entry_id: string;
  kind: string;
  issue_date: string;
  due_date: string;
  series: string;
  code: string;
  number: string;
  type: string;
  state: string;
  folder: string;
  supplier: string;
  supplier_tax_id: string;
  customer: string;
  customer_tax_id: string;
  currency: string;
  net: string;
  tax: string;
  total: string;
  payable: string;
  rates: RateFigures[];
}

const GOBL = 'https://gobl.org/draft-0/';
// Document types whose amounts reduce what was invoiced.
const NEGATIVE_TYPES = new Set(['credit-note']);

/** "ES B98602642": the country, then the code, as tax ids are written on invoices. */
function taxIdText(party: Record<string, unknown> | undefined): string {
  const taxId = obj(party?.tax_id);
  return [str(taxId?.country), str(taxId?.code)].filter(Boolean).join(' ');
}

function amountText(value: unknown, negative: boolean): string {
  const text = typeof value === 'string' ? value.trim() : typeof value === 'number' ? String(value) : '';
  if (!isDecimal(text)) return '';
  return negative ? negateDecimal(text) : text;
}

function kindOf(schema: string): string {
  return schema.startsWith(GOBL) ? schema.slice(GOBL.length) : schema || 'unknown';
}

function dueDateOf(doc: Record<string, unknown>): string {
  const terms = obj(obj(doc.payment)?.terms);
  const dates = objects(terms?.due_dates).map((d) => str(d.date)).filter((d): d is string => d !== undefined).sort();
  return dates[dates.length - 1] ?? '';
}

/** The figures of an entry's document (an empty row, with what the entry itself says, for a non-GOBL document, or one that is not JSON). */
export async function documentFigures(row: EntryRow): Promise<DocumentFigures> {
  let doc: Record<string, unknown> = {};
  try {
    // A large one parsed a piece at a time: a 13,000-line invoice in one JSON.parse held the loop 40 ms.
    doc = obj(((await parseStoredJson(documentText(row.data, row.id))) as Record<string, unknown>).doc) ?? {};
  } catch {
    // a row the database holds is JSON; should it not be, the row still has its place, empty
  }
  const type = str(doc.type) ?? '';
  const negative = NEGATIVE_TYPES.has(type);
  const totals = obj(doc.totals) ?? {};
  const payment = obj(doc.$schema === `${GOBL}bill/payment` ? doc : undefined);
  const supplier = obj(doc.supplier);
  const customer = obj(doc.customer);

  const rates: RateFigures[] = [];
  for (const category of objects(obj(totals.taxes)?.categories)) {
    const retained = category.retained === true;
    for (const rate of objects(category.rates)) {
      const amount = amountText(rate.amount, negative);
      rates.push({
        category: str(category.code) ?? '',
        key: str(rate.key) ?? '',
        rate: str(rate.rate) ?? '',
        percent: percentNumber(rate.percent) ?? '',
        base: amountText(rate.base, negative),
        amount: retained && amount !== '' ? negateDecimal(amount) : amount,
        retained,
      });
    }
  }

  return {
    entry_id: row.id,
    kind: kindOf(schemaFromStored(row.doc_schema)),
    issue_date: str(doc.issue_date) ?? row.issue_date ?? '',
    due_date: dueDateOf(doc),
    series: str(doc.series) ?? '',
    code: str(doc.code) ?? '',
    number: documentNumber(doc),
    type,
    state: row.state,
    folder: row.folder,
    supplier: str(supplier?.name) ?? '',
    supplier_tax_id: taxIdText(supplier),
    customer: str(customer?.name) ?? '',
    customer_tax_id: taxIdText(customer),
    currency: str(doc.currency) ?? '',
    net: amountText(totals.total, negative),
    tax: amountText(totals.tax, negative),
    total: amountText(totals.total_with_tax ?? payment?.total, negative),
    payable: amountText(totals.payable ?? totals.due ?? payment?.total, negative),
    rates,
  };
}
