import { docTypeOf } from './doc-types.ts';
import { dateFields } from './shape/days.ts';
import { isEnvelope } from './wrap.ts';

type Json = Record<string, unknown>;

const TITLE_MAX_CHARS = 200;

const INVOICE_LABELS: Readonly<Record<string, string>> = {
  standard: 'Invoice',
  proforma: 'Proforma invoice',
  corrective: 'Corrective invoice',
  'credit-note': 'Credit note',
  'debit-note': 'Debit note',
};

const PAYMENT_LABELS: Readonly<Record<string, string>> = {
  request: 'Payment request',
  advice: 'Payment advice',
  receipt: 'Payment receipt',
};

/**
 * The short summary a list of entries shows: always a `title`, e.g.
 * "Invoice SAMPLE-001 — Provide One S.L. → Sample Consumer", and for invoices
 * and payments the key fields (type, series, code, issue_date, due_date,
 * supplier, customer, currency, total, sum, net, tax) when the document has them.
 * Amounts are as the document states them (a credit note's are positive; the list
 * shows them negative from its type). Accepts an envelope or a bare document;
 * only string values are returned.
 */
export function snippetOf(envelope: unknown): Record<string, string> {
  const doc = asObject(isEnvelope(envelope) ? envelope.doc : envelope) ?? {};
  switch (docTypeOf(doc.$schema)) {
    case 'bill/invoice':
      return billingSnippet(doc, 'invoice', asObject(doc.totals));
    case 'bill/payment':
      return billingSnippet(doc, 'payment', undefined);
    case 'org/party':
      return { title: clip(partyName(doc) ?? labelled('Party', doc.uuid)) };
    case 'note/message':
      return { title: clip(str(doc.title) ?? firstLine(str(doc.content)) ?? labelled('Message', doc.uuid)) };
    default:
      return { title: clip(labelled(unknownLabel(doc.$schema), doc.uuid ?? headUuid(envelope))) };
  }
}

/** The parts of an invoice's or payment's snippet its title is made of. */
export interface TitleParts {
  type?: string;
  series?: string;
  code?: string;
  supplier?: string;
  customer?: string;
}

/**
 * The title of an invoice (`bill/invoice`) or payment with these parts, as its snippet has it.
 * Stored snippets name it instead of repeating it (silo/stored-snippet.ts): another wording is
 * another format of those, never a change to this function.
 */
export function billingTitle(kind: 'invoice' | 'payment', parts: TitleParts): string {
  const [labels, fallback] = kind === 'invoice' ? [INVOICE_LABELS, 'Invoice'] : [PAYMENT_LABELS, 'Payment'];
  const { type, series, code, supplier, customer } = parts;
  // GOBL presents a series as a prefix of the code, separated by a dash.
  const number = series && code ? `${series}-${code}` : code;
  let title = (type && labels[type]) || fallback;
  if (number) title += ` ${number}`;
  if (supplier && customer) title += ` — ${supplier} → ${customer}`;
  else if (supplier) title += ` — ${supplier}`;
  else if (customer) title += ` — → ${customer}`;
  return clip(title);
}

function billingSnippet(doc: Json, kind: 'invoice' | 'payment', totals: Json | undefined): Record<string, string> {
  const type = str(doc.type);
  const series = str(doc.series);
  const code = str(doc.code);
  const supplier = partyName(asObject(doc.supplier));
  const customer = partyName(asObject(doc.customer));

  const snippet: Record<string, string> = { title: billingTitle(kind, { type, series, code, supplier, customer }) };
  // Written in this order, those the document has.
  const put = (name: string, value: string | undefined) => {
    if (value !== undefined) snippet[name] = value;
  };
  put('type', type);
  put('series', series);
  put('code', code);
  put('issue_date', str(doc.issue_date));
  put('due_date', dueDateOf(doc));
  put('supplier', supplier);
  put('customer', customer);
  put('currency', str(doc.currency));
  put('total', totals ? str(totals.payable) ?? str(totals.total_with_tax) : str(doc.total));
  if (totals) {
    put('sum', str(totals.sum));
    // Net is the total before tax (after discounts and charges), as GOBL's totals.total.
    put('net', str(totals.total));
    put('tax', str(totals.tax));
  }
  return snippet;
}

/**
 * When the document is due: the earliest of its payment terms' due dates (the first
 * instalment), else none. A date that is not YYYY-MM-DD is left out.
 */
function dueDateOf(doc: Json): string | undefined {
  const dates = asObject(asObject(doc.payment)?.terms)?.due_dates;
  if (!Array.isArray(dates)) return undefined;
  let earliest: string | undefined;
  for (const d of dates) {
    const day = str(asObject(d)?.date);
    if (day && dateFields(day) >= 0 && (earliest === undefined || day < earliest)) earliest = day;
  }
  return earliest;
}

// A simplified invoice's customer may have no name, only a tax id.
function partyName(party: Json | undefined): string | undefined {
  if (!party) return undefined;
  const taxId = asObject(party.tax_id);
  const taxCode = taxId && str(taxId.code) ? `${str(taxId.country) ?? ''}${str(taxId.code)}` : undefined;
  return str(party.name) ?? str(party.alias) ?? taxCode;
}

function unknownLabel(schema: unknown): string {
  const segment = typeof schema === 'string' ? schema.split('/').filter(Boolean).at(-1) : undefined;
  if (!segment) return 'Document';
  return segment.charAt(0).toUpperCase() + segment.slice(1);
}

function labelled(label: string, uuid: unknown): string {
  const id = str(uuid);
  return id ? `${label} ${id}` : label;
}

function headUuid(envelope: unknown): unknown {
  return isEnvelope(envelope) ? asObject(envelope.head)?.uuid : undefined;
}

function firstLine(text: string | undefined): string | undefined {
  const line = text?.trim().split('\n', 1)[0]?.trim();
  return line ? line : undefined;
}

function clip(text: string): string {
  if (text.length <= TITLE_MAX_CHARS) return text;
  return `${text.slice(0, TITLE_MAX_CHARS - 1).trimEnd()}…`;
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

function asObject(value: unknown): Json | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : undefined;
}
