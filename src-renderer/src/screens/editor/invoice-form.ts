// The invoice editor's form: plain strings the inputs edit, turned into a GOBL invoice for the
// engine and back. A loaded document keeps everything the form does not show (ordering,
// payment, extensions, addons…): the form only replaces the members it owns, and drops the
// figures GOBL calculates, so every build calculates them afresh.
import { arr, obj, objs, str, type Json } from '../entry/gobl.ts';

export const INVOICE_SCHEMA = 'https://gobl.org/draft-0/bill/invoice';

export interface PartyForm {
  name: string;
  tax_country: string;
  tax_code: string;
  street: string;
  code: string;
  locality: string;
  country: string;
  email: string;
  /** members of the party the form does not show */
  rest: Json;
}

/** A tax of a line: a category and either a named rate, a key (exempt, reverse-charge…) or a percent. */
export interface LineTax {
  cat: string;
  /** "rate:general", "key:exempt" or "percent:21" */
  choice: string;
  rest: Json;
}

export interface LineForm {
  /** stable React key */
  id: number;
  name: string;
  quantity: string;
  price: string;
  discount: string;
  taxes: LineTax[];
  rest: Json;
  itemRest: Json;
}

export interface DiscountForm {
  id: number;
  reason: string;
  /** "10" for 10 %, or empty when an amount is given */
  percent: string;
  amount: string;
}

export interface InvoiceForm {
  type: string;
  currency: string;
  issue_date: string;
  series: string;
  code: string;
  supplier: PartyForm;
  customer: PartyForm;
  lines: LineForm[];
  discounts: DiscountForm[];
  notes: string;
  /** the prices of lines include this tax category ("VAT"), as a receipt prints them */
  prices_include: string;
  /** members of the document the form does not show */
  rest: Json;
}

let nextId = 1;
const newId = () => nextId++;

export const emptyParty = (): PartyForm => ({ name: '', tax_country: '', tax_code: '', street: '', code: '', locality: '', country: '', email: '', rest: {} });

export const emptyLine = (cat = 'VAT', choice = 'rate:general'): LineForm => ({
  id: newId(), name: '', quantity: '1', price: '', discount: '', taxes: cat ? [{ cat, choice, rest: {} }] : [], rest: {}, itemRest: {},
});

export const emptyDiscount = (): DiscountForm => ({ id: newId(), reason: '', percent: '', amount: '' });

export function newInvoiceForm(today: string, currency = 'EUR'): InvoiceForm {
  return {
    type: 'standard', currency, issue_date: today, series: '', code: '', supplier: emptyParty(), customer: emptyParty(),
    lines: [emptyLine()], discounts: [], notes: '', prices_include: '', rest: {},
  };
}

const without = (value: Json | undefined, ...keys: string[]): Json => {
  const copy: Json = { ...(value ?? {}) };
  for (const key of keys) delete copy[key];
  return copy;
};

const percentOf = (value: unknown): string => str(value)?.replace(/%$/, '').trim() ?? '';

export function partyForm(party: Json | undefined): PartyForm {
  if (!party) return emptyParty();
  const taxId = obj(party.tax_id);
  const address = objs(party.addresses)[0];
  const email = objs(party.emails)[0];
  return {
    name: str(party.name) ?? '',
    tax_country: str(taxId?.country) ?? '',
    tax_code: str(taxId?.code) ?? '',
    // The house number stays where it is (kept with the address's other members): only the street is edited.
    street: str(address?.street) ?? '',
    code: str(address?.code) ?? '',
    locality: str(address?.locality) ?? '',
    country: str(address?.country) ?? '',
    email: str(email?.addr) ?? '',
    rest: { ...without(party, 'name', 'tax_id', 'addresses', 'emails', 'uuid'), ...(taxId ? { $tax_id_rest: without(taxId, 'country', 'code') } : {}), ...(address ? { $address_rest: without(address, 'street', 'code', 'locality', 'country') } : {}) },
  };
}

function choiceOf(combo: Json): string {
  const rate = str(combo.rate);
  if (rate) return `rate:${rate}`;
  const key = str(combo.key);
  if (key && key !== 'standard') return `key:${key}`;
  const percent = percentOf(combo.percent);
  return percent ? `percent:${percent}` : 'rate:general';
}

export function lineForm(line: Json): LineForm {
  const item = obj(line.item) ?? {};
  const discounts = objs(line.discounts);
  return {
    id: newId(),
    name: str(item.name) ?? '',
    quantity: str(line.quantity) ?? '1',
    price: str(item.price) ?? '',
    discount: discounts.length === 1 ? percentOf(discounts[0].percent) : '',
    taxes: objs(line.taxes).map((combo) => ({ cat: str(combo.cat) ?? '', choice: choiceOf(combo), rest: without(combo, 'cat', 'rate', 'key', 'percent', 'surcharge') })),
    // Kept as they are: a line's other members, and its discounts when there are several.
    rest: without(line, 'i', 'quantity', 'item', 'sum', 'total', 'taxes', ...(discounts.length === 1 ? ['discounts'] : [])),
    itemRest: without(item, 'name', 'price'),
  };
}

/** The form for a stored or built invoice. */
export function invoiceForm(doc: Json): InvoiceForm {
  const tax = obj(doc.tax);
  const notes = objs(doc.notes);
  return {
    type: str(doc.type) ?? 'standard',
    currency: str(doc.currency) ?? 'EUR',
    issue_date: str(doc.issue_date) ?? '',
    series: str(doc.series) ?? '',
    code: str(doc.code) ?? '',
    supplier: partyForm(obj(doc.supplier)),
    customer: partyForm(obj(doc.customer)),
    lines: arr(doc.lines).map((l) => lineForm(obj(l) ?? {})),
    discounts: objs(doc.discounts).map((d) => ({ id: newId(), reason: str(d.reason) ?? '', percent: percentOf(d.percent), amount: str(d.percent) ? '' : (str(d.amount) ?? '') })),
    notes: notes.length === 1 && Object.keys(notes[0]).every((k) => k === 'text') ? (str(notes[0].text) ?? '') : '',
    prices_include: str(tax?.prices_include) ?? '',
    // Figures are GOBL's to calculate; the rest stays as it is.
    rest: without(doc, 'type', 'currency', 'issue_date', 'series', 'code', 'supplier', 'customer', 'lines', 'discounts', 'totals', ...(notes.length === 1 && Object.keys(notes[0]).every((k) => k === 'text') ? ['notes'] : [])),
  };
}

const blank = (value: string) => value.trim() === '';

function partyDoc(party: PartyForm): Json | undefined {
  const { $tax_id_rest: taxIdRest, $address_rest: addressRest, ...rest } = party.rest as Json & { $tax_id_rest?: Json; $address_rest?: Json };
  const out: Json = { ...rest };
  if (!blank(party.name)) out.name = party.name.trim();
  if (!blank(party.tax_country) || !blank(party.tax_code)) {
    out.tax_id = { ...(taxIdRest ?? {}), country: party.tax_country.trim().toUpperCase(), ...(blank(party.tax_code) ? {} : { code: party.tax_code.trim() }) };
  }
  if (![party.street, party.code, party.locality, party.country].every(blank)) {
    out.addresses = [{
      ...(addressRest ?? {}),
      ...(blank(party.street) ? {} : { street: party.street.trim() }),
      ...(blank(party.code) ? {} : { code: party.code.trim() }),
      ...(blank(party.locality) ? {} : { locality: party.locality.trim() }),
      ...(blank(party.country) ? {} : { country: party.country.trim().toUpperCase() }),
    }];
  }
  if (!blank(party.email)) out.emails = [{ addr: party.email.trim() }];
  return Object.keys(out).length > 0 ? out : undefined;
}

function comboDoc(tax: LineTax): Json {
  const [kind, value] = [tax.choice.slice(0, tax.choice.indexOf(':')), tax.choice.slice(tax.choice.indexOf(':') + 1)];
  const combo: Json = { ...tax.rest, cat: tax.cat };
  if (kind === 'rate') combo.rate = value;
  else if (kind === 'key') combo.key = value;
  else if (kind === 'percent' && !blank(value)) combo.percent = `${value.trim()}%`;
  return combo;
}

function lineDoc(line: LineForm): Json {
  const out: Json = { ...line.rest, quantity: line.quantity.trim() || '1', item: { ...line.itemRest, name: line.name.trim(), price: line.price.trim() } };
  if (!blank(line.discount)) out.discounts = [{ percent: `${line.discount.trim()}%` }];
  const taxes = line.taxes.filter((t) => !blank(t.cat)).map(comboDoc);
  if (taxes.length > 0) out.taxes = taxes;
  return out;
}

/** The GOBL invoice the form describes, without figures: GOBL calculates them. */
export function invoiceDocument(form: InvoiceForm): Json {
  const doc: Json = { ...form.rest, $schema: INVOICE_SCHEMA };
  doc.type = form.type || 'standard';
  if (!blank(form.series)) doc.series = form.series.trim();
  if (!blank(form.code)) doc.code = form.code.trim();
  if (!blank(form.issue_date)) doc.issue_date = form.issue_date;
  doc.currency = form.currency.trim().toUpperCase() || 'EUR';
  const tax = without(obj(form.rest.tax), 'prices_include');
  if (!blank(form.prices_include)) tax.prices_include = form.prices_include;
  if (Object.keys(tax).length > 0) doc.tax = tax;
  else delete doc.tax;
  const supplier = partyDoc(form.supplier);
  if (supplier) doc.supplier = supplier;
  const customer = partyDoc(form.customer);
  if (customer) doc.customer = customer;
  doc.lines = form.lines.map(lineDoc);
  const discounts = form.discounts
    .filter((d) => !blank(d.percent) || !blank(d.amount))
    .map((d) => ({ ...(blank(d.reason) ? {} : { reason: d.reason.trim() }), ...(blank(d.percent) ? { amount: d.amount.trim() } : { percent: `${d.percent.trim()}%` }) }));
  if (discounts.length > 0) doc.discounts = discounts;
  if (!blank(form.notes)) doc.notes = [{ text: form.notes.trim() }];
  return doc;
}
