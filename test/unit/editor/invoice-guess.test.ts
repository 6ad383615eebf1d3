import { describe, expect, it } from 'vitest';
import { amountsIn, parseAmount } from '../../../src-renderer/src/screens/editor/amount-text.ts';
import { datesIn } from '../../../src-renderer/src/screens/editor/date-text.ts';
import { guessInvoice } from '../../../src-renderer/src/screens/editor/invoice-guess.ts';
import { englishInvoice, linesOf, makePdf, spanishInvoice } from './pdf-fixtures.ts';

describe('reading an invoice PDF made with pdfkit', () => {
  it('groups the text layer into lines as the page reads', async () => {
    const lines = await linesOf(await makePdf(spanishInvoice));
    expect(lines).toContain('Cuadernos A4\t100\t2,50\t250,00 €');
    expect(lines).toContain('IVA 21%\t262,50 €');
    expect(lines[0]).toBe('Papelería Ejemplo S.L.\tFACTURA');
  });

  it('finds number, dates, tax ids, totals and the rate of a Spanish invoice, each with its line', async () => {
    const guess = guessInvoice(await linesOf(await makePdf(spanishInvoice)));
    expect(guess.code).toEqual({ value: 'FV-2026-0042', line: 'Nº factura: FV-2026-0042' });
    expect(guess.issue_date?.value).toBe('2026-03-14');
    expect(guess.due_date?.value).toBe('2026-04-13');
    expect(guess.supplier_name?.value).toBe('Papelería Ejemplo S.L.');
    expect(guess.total?.line).toBe('Total factura  1.512,50 €');
    expect(guess.supplier_tax_id?.value).toEqual({ country: 'ES', code: 'B98602642' });
    expect(guess.customer_tax_id?.value).toEqual({ country: 'ES', code: 'A28017895' });
    expect(guess.currency?.value).toBe('EUR');
    expect(guess.net?.value).toBe('1250.00');
    expect(guess.total?.value).toBe('1512.50');
    expect(guess.rates.map((r) => r.value)).toEqual([{ percent: '21', amount: '262.50' }]);
    expect(guess.tax?.value).toBe('262.50');
  });

  it('reads an English invoice: month names, thousands commas, a prefixed VAT number', async () => {
    const guess = guessInvoice(await linesOf(await makePdf(englishInvoice)));
    expect(guess.code?.value).toBe('INV-0007');
    expect(guess.issue_date?.value).toBe('2026-03-02');
    expect(guess.due_date?.value).toBe('2026-04-01');
    expect(guess.supplier_name?.value).toBe('Northwind Traders Ltd');
    expect(guess.supplier_tax_id?.value).toEqual({ country: 'GB', code: '123456789' });
    expect(guess.currency?.value).toBe('GBP');
    expect([guess.net?.value, guess.tax?.value, guess.total?.value]).toEqual(['1200.00', '240.00', '1440.00']);
  });

  it('guesses nothing from a scan without a text layer', async () => {
    const lines = await linesOf(await makePdf([], { image: true }));
    expect(lines).toEqual([]);
    expect(guessInvoice(lines)).toEqual({ rates: [] });
  });

  it('does not take a date, a tax id or a lone amount for what it is not', () => {
    const guess = guessInvoice(['Order 2026-03-01', 'Phone 91 555 12 34', 'Amount 12,00', 'NIF 12345678Z']);
    expect(guess.code).toBeUndefined();
    expect(guess.total).toBeUndefined();
    expect(guess.net).toBeUndefined();
    expect(guess.supplier_tax_id?.value).toEqual({ country: 'ES', code: '12345678Z' });
    expect(guess.issue_date?.value).toBe('2026-03-01');
  });
});

describe('amounts and dates as invoices print them', () => {
  it('reads both decimal marks and thousands groups exactly, refusing the ambiguous', () => {
    expect(parseAmount('1.234,56')).toBe('1234.56');
    expect(parseAmount('1,234.56')).toBe('1234.56');
    expect(parseAmount('12,5')).toBe('12.50');
    expect(parseAmount('1 234,00')).toBe('1234.00');
    expect(parseAmount('1.234.567')).toBe('1234567.00');
    expect(parseAmount('1,234,5')).toBeUndefined();
    expect(amountsIn('IVA 21% sobre 1.000,00: 210,00 €')).toEqual(['1000.00', '210.00']);
  });

  it('reads numeric dates day first, month names in several languages, and refuses impossible ones', () => {
    expect(datesIn('14/03/2026')).toEqual(['2026-03-14']);
    expect(datesIn('03/14/2026')).toEqual(['2026-03-14']);
    expect(datesIn('14.03.26')).toEqual(['2026-03-14']);
    expect(datesIn('14 de marzo de 2026 y 2 March 2026')).toEqual(['2026-03-14', '2026-03-02']);
    expect(datesIn('31/02/2026')).toEqual([]);
  });
});
