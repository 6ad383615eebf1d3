// One CSV record as RFC 4180 writes it, safe to open in a spreadsheet.

/**
 * Text a spreadsheet would run as a formula (OWASP "CSV injection"): a cell starting with
 * = + - @, a tab or a carriage return. Such text is prefixed with an apostrophe, which
 * spreadsheets show as text. Amounts are written by us, never from the document's text,
 * so a negative amount ("-12.30") is passed as a number and not escaped.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

export type Cell = { text: string } | { number: string };

export const text = (value: string): Cell => ({ text: value });
export const number = (value: string): Cell => ({ number: value });

function cellText(cell: Cell): string {
  if ('number' in cell) return cell.number;
  return FORMULA_START.test(cell.text) ? `'${cell.text}` : cell.text;
}

/** A field quoted when it holds the delimiter, a quote, CR or LF; quotes inside are doubled. */
function quoted(value: string, delimiter: string): string {
  const needs = value.includes(delimiter) || /["\r\n]/.test(value);
  return needs ? `"${value.replace(/"/g, '""')}"` : value;
}

/** One record, CRLF-terminated as RFC 4180 says. */
export function csvRecord(cells: Cell[], delimiter: string): string {
  return `${cells.map((c) => quoted(cellText(c), delimiter)).join(delimiter)}\r\n`;
}
