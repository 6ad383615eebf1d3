import { partialInvoice } from './gobl-helpers.ts';

/** A partial invoice GOBL builds (10 × 100.00 and 2 × 50.00 less 10%, at 21%), numbered `code`. */
export const invoiceDoc = (code: string, overrides: Record<string, unknown> = {}): any => partialInvoice({ code, ...overrides });

/** A credit note naming `invoice` (a built document) by uuid, series, code and date. */
export function creditNote(invoice: { uuid: string; series: string; code: string; issue_date: string }, code: string): any {
  return partialInvoice({
    type: 'credit-note',
    series: 'CN',
    code,
    preceding: [{ type: 'standard', uuid: invoice.uuid, series: invoice.series, code: invoice.code, issue_date: invoice.issue_date }],
  });
}
