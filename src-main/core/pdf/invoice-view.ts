import { digestOf, snippetOf } from '../gobl/index.ts';
import { negateDecimal, type Formatter } from './formatter.ts';
import { documentNumber, humanize, isSet, obj, objects, str, strings, type Json } from './gobl-read.ts';
import { partyView, type PartyView } from './party-view.ts';
import { noteBlocks, paymentBlocks, type TextBlockView } from './text-blocks-view.ts';

export type { PartyView, TextBlockView };

export interface LineView {
  index: string;
  name: string;
  /** smaller text under the name: codes, period, taxes, reasons, notes */
  details: string[];
  quantity: string;
  unit: string;
  price: string;
  /** "-180,00 (10 %)" for a discount, "+5,00" for a charge */
  adjustments: string[];
  total: string;
}

export interface AdjustmentView {
  reason: string;
  percent: string;
  amount: string;
}

export interface TaxRowView {
  category: string;
  rate: string;
  base: string;
  percent: string;
  amount: string;
}

export interface TotalRowView {
  label: string;
  value: string;
  /** 'strong' is the amount to pay */
  weight: 'normal' | 'bold' | 'strong';
}

/** Everything the PDF shows, as display text in the chosen locale; no layout here. */
export interface InvoiceView {
  title: string;
  /** the document's tags, e.g. "Simplified", "Reverse charge" */
  labels: string[];
  number: string;
  facts: Array<{ label: string; value: string }>;
  supplier: PartyView;
  customer?: PartyView;
  currency: string;
  lines: LineView[];
  /** document-level discounts and charges */
  adjustments: AdjustmentView[];
  taxes: TaxRowView[];
  totals: TotalRowView[];
  payment: TextBlockView[];
  notes: TextBlockView[];
  envelope: { uuid: string; digest: string };
  info: { title: string; author: string; subject: string; date: Date };
}

const TITLES: Readonly<Record<string, string>> = {
  standard: 'Invoice',
  proforma: 'Proforma invoice',
  corrective: 'Corrective invoice',
  'credit-note': 'Credit note',
  'debit-note': 'Debit note',
};

// A fixed date for documents without a usable issue date, so output stays reproducible.
const FALLBACK_DATE = new Date(Date.UTC(2000, 0, 1));

/** The display model of a GOBL invoice envelope. Missing parts are left out, never invented. */
export function invoiceViewOf(envelope: { head?: unknown; doc?: unknown }, fmt: Formatter): InvoiceView {
  const doc = obj(envelope.doc) ?? {};
  const currency = str(doc.currency) ?? '';
  const title = TITLES[str(doc.type) ?? ''] ?? 'Invoice';
  const number = documentNumber(doc);
  const supplier = partyView('Supplier', obj(doc.supplier) ?? {}, fmt);
  const customerDoc = obj(doc.customer);
  const money = (value: unknown) => withCurrency(fmt.decimal(value), currency);

  return {
    title,
    labels: strings(doc.$tags).map(humanize),
    number,
    facts: factsOf(doc, number, fmt),
    supplier,
    customer: customerDoc ? partyView('Customer', customerDoc, fmt) : undefined,
    currency,
    lines: objects(doc.lines).map((line, at) => lineView(line, at, currency, fmt)),
    adjustments: [
      ...objects(doc.discounts).map((d) => adjustmentView('Discount', d, true, fmt)),
      ...objects(doc.charges).map((c) => adjustmentView('Charge', c, false, fmt)),
    ],
    taxes: taxRows(obj(obj(doc.totals)?.taxes), fmt),
    totals: totalRows(obj(doc.totals) ?? {}, fmt, money),
    payment: paymentBlocks(obj(doc.payment) ?? {}, fmt, money),
    notes: noteBlocks(doc, fmt),
    envelope: envelopeIdentity(envelope, doc),
    info: {
      title: [title, number].filter(Boolean).join(' '),
      author: supplier.name,
      subject: snippetOf(envelope).title,
      date: isoDateOf(doc.issue_date) ?? FALLBACK_DATE,
    },
  };
}

function factsOf(doc: Json, number: string, fmt: Formatter): Array<{ label: string; value: string }> {
  const facts: Array<{ label: string; value: string | undefined }> = [
    { label: 'Number', value: number || undefined },
    { label: 'Issue date', value: str(doc.issue_date) && fmt.date(doc.issue_date) },
    { label: 'Issue time', value: str(doc.issue_time) },
    { label: 'Operation date', value: str(doc.op_date) && fmt.date(doc.op_date) },
    { label: 'Value date', value: str(doc.value_date) && fmt.date(doc.value_date) },
    { label: 'Currency', value: str(doc.currency) },
  ];
  const ordering = obj(doc.ordering);
  if (ordering) {
    facts.push({ label: 'Order', value: str(ordering.code) });
    facts.push({ label: 'Period', value: periodText(obj(ordering.period), fmt) });
  }
  for (const preceding of objects(doc.preceding)) {
    const when = str(preceding.issue_date) ? ` (${fmt.date(preceding.issue_date)})` : '';
    facts.push({ label: 'Corrects', value: (documentNumber(preceding) || str(preceding.uuid) || '') + when });
  }
  return facts.filter((f): f is { label: string; value: string } => isSet(f.value) && f.value !== '');
}

function lineView(line: Json, at: number, currency: string, fmt: Formatter): LineView {
  const item = obj(line.item) ?? {};
  const details: string[] = [];
  const description = str(item.description);
  if (description) details.push(description);
  const identifier = obj(line.identifier);
  if (identifier && str(identifier.code)) {
    details.push(`${str(identifier.label) ?? 'Code'}: ${str(identifier.code)}`);
  }
  const ref = str(item.ref);
  if (ref) details.push(`Ref. ${ref}`);
  for (const identity of objects(item.identities)) {
    if (str(identity.code)) details.push(`${str(identity.type) ?? str(identity.label) ?? 'ID'}: ${str(identity.code)}`);
  }
  const period = periodText(obj(line.period), fmt);
  if (period) details.push(`Period: ${period}`);
  const taxes = objects(line.taxes).map((tax) => taxComboText(tax, fmt)).filter((t) => t !== '');
  if (taxes.length > 0) details.push(taxes.join(' · '));

  const adjustments: string[] = [];
  for (const [list, negative] of [[line.discounts, true], [line.charges, false]] as const) {
    for (const adjustment of objects(list)) {
      const amount = str(adjustment.amount);
      const percent = str(adjustment.percent);
      const shown = amount ? fmt.decimal(negative ? negateDecimal(amount) : amount) : '';
      const signed = !negative && shown && !shown.startsWith('-') ? `+${shown}` : shown;
      adjustments.push(percent ? `${signed} (${fmt.percent(percent)})`.trim() : signed);
      const reason = str(adjustment.reason);
      if (reason) details.push(`${negative ? 'Discount' : 'Charge'}: ${reason}`);
    }
  }
  for (const note of objects(line.notes)) {
    const text = str(note.text);
    if (text) details.push(text);
  }

  const itemCurrency = str(item.currency);
  const price = fmt.decimal(item.price);
  return {
    index: str(line.i) ?? (typeof line.i === 'number' ? String(line.i) : String(at + 1)),
    name: str(item.name) ?? '',
    details,
    quantity: fmt.decimal(line.quantity),
    unit: str(item.unit) ?? '',
    price: itemCurrency && itemCurrency !== currency && price ? `${price} ${itemCurrency}` : price,
    adjustments,
    total: fmt.decimal(line.total ?? line.sum),
  };
}

// "VAT standard 21,0 % + 5,2 %": category, rate key and percent (and surcharge) of one tax combo.
function taxComboText(tax: Json, fmt: Formatter): string {
  const parts = [str(tax.cat), str(tax.key)?.replace(/[-_]+/g, ' '), str(tax.country)];
  const percent = str(tax.percent);
  if (percent) parts.push(fmt.percent(percent));
  const surcharge = str(tax.surcharge);
  if (surcharge) parts.push(`+ ${fmt.percent(surcharge)}`);
  return parts.filter(isSet).join(' ');
}

function adjustmentView(kind: string, adjustment: Json, negative: boolean, fmt: Formatter): AdjustmentView {
  const amount = str(adjustment.amount) ?? '';
  const reason = str(adjustment.reason) ?? (str(adjustment.key) && humanize(str(adjustment.key)!));
  return {
    reason: reason ? `${kind}: ${reason}` : kind,
    percent: str(adjustment.percent) ? fmt.percent(adjustment.percent) : '',
    amount: fmt.decimal(negative ? negateDecimal(amount) : amount),
  };
}

function taxRows(taxes: Json | undefined, fmt: Formatter): TaxRowView[] {
  const rows: TaxRowView[] = [];
  for (const category of objects(taxes?.categories)) {
    const code = str(category.code) ?? '';
    const name = category.retained === true ? `${code} (retained)` : code;
    for (const rate of objects(category.rates)) {
      const key = str(rate.key);
      const label = [key && humanize(key), str(rate.country)].filter(isSet).join(' ');
      rows.push({
        category: name,
        rate: label,
        base: fmt.decimal(rate.base),
        percent: str(rate.percent) ? fmt.percent(rate.percent) : '',
        amount: fmt.decimal(rate.amount),
      });
      const surcharge = obj(rate.surcharge);
      if (surcharge) {
        rows.push({
          category: `${code} surcharge`,
          rate: label,
          base: fmt.decimal(rate.base),
          percent: str(surcharge.percent) ? fmt.percent(surcharge.percent) : '',
          amount: fmt.decimal(surcharge.amount),
        });
      }
    }
  }
  return rows;
}

function totalRows(totals: Json, fmt: Formatter, money: (value: unknown) => string): TotalRowView[] {
  const minus = (value: unknown) => fmt.decimal(negateDecimal(str(value) ?? ''));
  const rows: Array<[string, unknown, (value: unknown) => string, TotalRowView['weight']]> = [
    ['Sum of lines', totals.sum, fmt.decimal, 'normal'],
    ['Discounts', totals.discount, minus, 'normal'],
    ['Charges', totals.charge, fmt.decimal, 'normal'],
    ['Tax included in prices', totals.tax_included, minus, 'normal'],
    ['Total without tax', totals.total, fmt.decimal, 'bold'],
    ['Tax', totals.tax, fmt.decimal, 'normal'],
    ['Total with tax', totals.total_with_tax, fmt.decimal, 'bold'],
    ['Retained tax', totals.retained_tax, minus, 'normal'],
    ['Outlays', totals.outlays, fmt.decimal, 'normal'],
    ['Rounding', totals.rounding, fmt.decimal, 'normal'],
    ['Payable', totals.payable, money, 'strong'],
    ['Advances paid', totals.advance, minus, 'normal'],
    ['Due', totals.due, money, 'strong'],
  ];
  return rows
    .filter(([, value]) => str(value) !== undefined)
    .map(([label, value, show, weight]) => ({ label, value: show(value), weight }));
}

function envelopeIdentity(envelope: { head?: unknown }, doc: Json): { uuid: string; digest: string } {
  const head = obj(envelope.head) ?? {};
  const dig = obj(head.dig);
  const alg = str(dig?.alg);
  const val = str(dig?.val);
  if (alg && val) return { uuid: str(head.uuid) ?? '', digest: `${alg} ${val}` };
  const computed = digestOf(doc);
  return { uuid: str(head.uuid) ?? '', digest: `${computed.alg} ${computed.val}` };
}

function periodText(period: Json | undefined, fmt: Formatter): string | undefined {
  if (!period) return undefined;
  const start = str(period.start);
  const end = str(period.end);
  if (!start && !end) return undefined;
  return `${start ? fmt.date(start) : '…'} – ${end ? fmt.date(end) : '…'}`;
}

function isoDateOf(value: unknown): Date | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(str(value) ?? '');
  if (!match) return undefined;
  const at = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  return Number.isNaN(at.getTime()) ? undefined : at;
}

function withCurrency(amount: string, currency: string): string {
  return amount && currency ? `${amount} ${currency}` : amount;
}

