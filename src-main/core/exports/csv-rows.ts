// The columns of the CSV export: one row per document, or one row per tax rate of each
// document. Names are plain English column headers accounting imports map once.
import { number, text, type Cell } from './csv-cells.ts';
import { withDecimalMark } from './decimal-text.ts';
import type { DocumentFigures, RateFigures } from './document-figures.ts';

export type CsvRowsMode = 'document' | 'tax-rate';

const DOCUMENT_COLUMNS = [
  'date', 'due_date', 'number', 'series', 'code', 'kind', 'type', 'supplier', 'supplier_tax_id', 'customer', 'customer_tax_id',
  'currency', 'net', 'tax', 'total', 'payable', 'state', 'folder', 'entry_id',
] as const;

const RATE_COLUMNS = [
  'date', 'number', 'series', 'code', 'kind', 'type', 'supplier', 'supplier_tax_id', 'customer', 'customer_tax_id', 'currency',
  'tax_category', 'tax_key', 'tax_rate', 'tax_percent', 'tax_base', 'tax_amount', 'retained', 'document_total', 'entry_id',
] as const;

export const csvHeader = (mode: CsvRowsMode): Cell[] => (mode === 'document' ? DOCUMENT_COLUMNS : RATE_COLUMNS).map(text);

/** The rows one document gives, as cells. */
export function csvRows(figures: DocumentFigures, mode: CsvRowsMode, decimal: '.' | ','): Cell[][] {
  const amount = (value: string) => number(withDecimalMark(value, decimal));
  const who = [
    text(figures.supplier), text(figures.supplier_tax_id), text(figures.customer), text(figures.customer_tax_id), text(figures.currency),
  ];
  if (mode === 'document') {
    return [[
      text(figures.issue_date), text(figures.due_date), text(figures.number), text(figures.series), text(figures.code),
      text(figures.kind), text(figures.type), ...who,
      amount(figures.net), amount(figures.tax), amount(figures.total), amount(figures.payable),
      text(figures.state), text(figures.folder), text(figures.entry_id),
    ]];
  }
  // A document without taxes still has its row: its whole net as an untaxed base.
  const rates: RateFigures[] = figures.rates.length > 0
    ? figures.rates
    : [{ category: '', key: '', rate: '', percent: '', base: figures.net, amount: '', retained: false }];
  return rates.map((rate) => [
    text(figures.issue_date), text(figures.number), text(figures.series), text(figures.code), text(figures.kind), text(figures.type), ...who,
    text(rate.category), text(rate.key), text(rate.rate), amount(rate.percent), amount(rate.base), amount(rate.amount),
    text(rate.retained ? 'yes' : ''), amount(figures.total), text(figures.entry_id),
  ]);
}
