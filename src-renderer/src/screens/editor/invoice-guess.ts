// What a PDF's text says about the invoice it shows: number, dates, tax ids, totals, tax rates.
// Guesses are honest: each is made only from a label and a value of the right shape on one line,
// and names that line, so the form can show where a value came from and the user can check it.
// Nothing is guessed from position alone except the supplier's name (a legal-form suffix).
import { amountsIn, compareDecimals } from './amount-text.ts';
import { datesIn } from './date-text.ts';

export interface Found<T> {
  value: T;
  /** the line of the PDF it was read from */
  line: string;
}

export interface InvoiceGuess {
  code?: Found<string>;
  issue_date?: Found<string>;
  due_date?: Found<string>;
  supplier_name?: Found<string>;
  supplier_tax_id?: Found<{ country: string; code: string }>;
  customer_tax_id?: Found<{ country: string; code: string }>;
  currency?: Found<string>;
  net?: Found<string>;
  tax?: Found<string>;
  total?: Found<string>;
  /** tax percents printed with an amount ("IVA 21%: 210,00") */
  rates: Array<Found<{ percent: string; amount?: string }>>;
}

const NUMBER_LABEL = /\b(?:invoice|factura|fattura|facture|rechnung|fatura|faktura)?\s*(?:n(?:o|º|°|r|um(?:ber|ero|éro)?)\.?|#|number|número|numéro|nummer)\s*[:.#]?\s*([A-Z0-9][A-Z0-9\-/._]{0,30}\d[A-Z0-9\-/._]*)/i;
const INVOICE_WORD_CODE = /\b(?:invoice|factura|fattura|facture|rechnung)\s*[:#]?\s*([A-Z]{0,6}[-/]?\d[A-Z0-9\-/._]{0,30})\b/i;
const ISSUE_LABEL = /\b(?:invoice date|issue date|date of issue|date|fecha(?: de (?:emisión|expedición|factura))?|data|datum|rechnungsdatum)\b/i;
const DUE_LABEL = /\b(?:due(?: date)?|payable by|vencimiento|fecha de vencimiento|échéance|fällig(?:keit)?|scadenza)\b/i;
const TOTAL_LABEL = /\b(?:total(?: due| a pagar| factura| amount| to pay| ttc)?|importe total|amount due|grand total|gesamtbetrag|totale|montant total)\b/i;
const NET_LABEL = /\b(?:subtotal|sub-total|base imponible|taxable(?: amount| base)?|net(?: amount| total)?|neto|total ht|nettobetrag|imponibile)\b/i;
const TAX_LABEL = /\b(?:vat|iva|igic|tva|mwst|ust|tax|impuesto|btw|moms)\b/i;
const TAX_ID_LABEL = /\b(?:vat(?: no| number| id)?|nif|cif|n\.i\.f\.|tva|ust-?id(?:nr)?|p\.? ?iva|tax id|btw|tin)\b/i;
const LEGAL_FORM = /\b(?:S\.?L\.?U?|S\.?A\.?U?|S\.?L\.?L\.?|GmbH|AG|Ltd\.?|Limited|LLC|Inc\.?|SARL|SAS|S\.?p\.?A\.?|S\.?r\.?l\.?|B\.?V\.?|N\.?V\.?|Oy|AB|ApS|A\/S|Lda\.?|Sp\. z o\.o\.)(?=$|[\s,.])/;

const EU_VAT = /\b(AT|BE|BG|CY|CZ|DE|DK|EE|EL|ES|FI|FR|HR|HU|IE|IT|LT|LU|LV|MT|NL|PL|PT|RO|SE|SI|SK|GB|CH|NO)[ -]?([A-Z0-9]{8,12})\b/;
// Spanish NIF/CIF without the country prefix: B12345678, 12345678Z, X1234567L.
const ES_NIF = /\b([A-HJ-NP-SUVW]\d{7}[0-9A-J]|\d{8}[A-Z]|[XYZ]\d{7}[A-Z])\b/;

const CURRENCY_CODE = /\b(EUR|USD|GBP|CHF|SEK|NOK|DKK|PLN|CZK|HUF|RON|MXN|BRL|ARS|COP|CAD|AUD|JPY|INR|SGD|AED)\b/;
const CURRENCY_SYMBOL: Array<[RegExp, string]> = [[/€/, 'EUR'], [/£/, 'GBP'], [/US\$|\$/, 'USD']];

function taxIdIn(line: string): { country: string; code: string } | undefined {
  const vat = EU_VAT.exec(line.toUpperCase());
  if (vat && /\d/.test(vat[2])) return { country: vat[1] === 'EL' ? 'GR' : vat[1], code: vat[2] };
  const nif = ES_NIF.exec(line.toUpperCase());
  if (nif && TAX_ID_LABEL.test(line)) return { country: 'ES', code: nif[1] };
  return undefined;
}

/** The last amount of a line (labels come first, the figure last), when the line has one. */
const lastAmount = (line: string): string | undefined => amountsIn(line.replace(/\d+(?:[.,]\d+)?\s?%/g, ' ')).at(-1);

export function guessInvoice(lines: string[]): InvoiceGuess {
  const guess: InvoiceGuess = { rates: [] };
  const taxIds: Array<Found<{ country: string; code: string }>> = [];

  // A line's columns (tab-separated) are read one by one for names, numbers, dates and ids;
  // amounts are read from the whole line, where a label's figure may stand in the next column.
  const cells = lines.flatMap((line) => line.split('\t'));
  for (const line of cells) {
    if (!guess.code) {
      const labelled = NUMBER_LABEL.exec(line) ?? INVOICE_WORD_CODE.exec(line);
      // A date is not a number, and a tax id line names no invoice.
      if (labelled && datesIn(labelled[1]).length === 0 && !TAX_ID_LABEL.test(line)) guess.code = { value: labelled[1].replace(/[.:]+$/, ''), line };
    }
    const dates = datesIn(line);
    if (dates.length > 0) {
      if (DUE_LABEL.test(line)) guess.due_date ??= { value: dates[0], line };
      else if (ISSUE_LABEL.test(line)) guess.issue_date ??= { value: dates[0], line };
    }
    const taxId = taxIdIn(line);
    if (taxId && !taxIds.some((t) => t.value.country === taxId.country && t.value.code === taxId.code)) taxIds.push({ value: taxId, line });
    if (!guess.supplier_name && LEGAL_FORM.test(line) && !TAX_ID_LABEL.test(line) && /[A-Za-z]{2}/.test(line) && line.length <= 80) {
      guess.supplier_name = { value: line.replace(/\s*[-–|].*$/, '').trim(), line };
    }
    if (!guess.currency) {
      const code = CURRENCY_CODE.exec(line);
      const symbol = CURRENCY_SYMBOL.find(([pattern]) => pattern.test(line));
      if (code) guess.currency = { value: code[1], line };
      else if (symbol && amountsIn(line).length > 0) guess.currency = { value: symbol[1], line };
    }
  }

  for (const row of lines) {
    const line = row.replace(/\t/g, '  ');
    const amount = lastAmount(line);
    if (amount === undefined) continue;
    if (NET_LABEL.test(line)) guess.net ??= { value: amount, line };
    else if (TOTAL_LABEL.test(line)) {
      // The largest labelled total is the grand total ("Total tax" lines are smaller).
      if (!guess.total || compareDecimals(amount, guess.total.value) > 0) guess.total = { value: amount, line };
    } else if (TAX_LABEL.test(line) && !taxIdIn(line)) {
      const percent = /(\d{1,2}(?:[.,]\d{1,2})?)\s?%/.exec(line)?.[1]?.replace(',', '.');
      if (percent) guess.rates.push({ value: { percent, amount }, line });
      else guess.tax ??= { value: amount, line };
    }
  }

  if (!guess.issue_date) {
    // No labelled date: the first date of the page, as invoices print the issue date near the top.
    for (const line of cells) {
      const dates = datesIn(line);
      if (dates.length > 0 && !DUE_LABEL.test(line)) {
        guess.issue_date = { value: dates[0], line };
        break;
      }
    }
  }
  // The issuer prints its own id first (letterhead); the customer's follows.
  guess.supplier_tax_id = taxIds[0];
  guess.customer_tax_id = taxIds[1];
  if (!guess.tax && guess.rates.length === 1 && guess.rates[0].value.amount) guess.tax = { value: guess.rates[0].value.amount, line: guess.rates[0].line };
  return guess;
}
