// Pure arithmetic checks on GOBL invoices, with GOBL's own rounding rules. No I/O.
export { checkInvoiceArithmetic } from './invoice.ts';
