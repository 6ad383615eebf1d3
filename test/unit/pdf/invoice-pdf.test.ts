import { describe, expect, it } from 'vitest';
import { renderInvoicePdf } from '../../../src-main/core/pdf/invoice-pdf.ts';
import { loadEnvelope, loadEnvelopes } from '../../fixtures/gobl/load.ts';
import { pdfPageTexts } from './pdf-text.ts';

async function textOf(envelope: unknown, locale?: string): Promise<string> {
  return (await pdfPageTexts(await renderInvoicePdf(envelope as never, { locale }))).join('\n');
}

const latin1 = (bytes: Uint8Array) => Buffer.from(bytes).toString('latin1');

describe('renderInvoicePdf', () => {
  it('shows parties, number, lines and totals of a Spanish invoice, formatted for Spain', async () => {
    const envelope = loadEnvelope('es-invoice-es-es.json');
    const text = await textOf(envelope);
    for (const expected of [
      'Invoice', 'SAMPLE-001', '01/02/2022', 'Provide One S.L.', 'ESB98602642', 'Calle Pradillo 42', '28002 Madrid',
      'billing@example.com', 'Sample Consumer', 'Development services', 'Financial service', '90,00', '-180,00 (10 %)',
      '1620,00', 'VAT Standard 1620,00 21,0 % 340,20', 'Payable 1970,20 EUR', 'Page 1 of 1',
      envelope.head.uuid, envelope.head.dig.val,
    ]) {
      expect(text).toContain(expected);
    }
  });

  it('draws Greek names with the embedded fonts', async () => {
    const text = await textOf(loadEnvelope('gr-invoice-fee.json'));
    for (const expected of [
      'Ξενοδοχείο Ακρόπολη Α.Ε.', 'Μαρία Παπαδοπούλου', 'SAMPLE-001', 'Διανυκτέρευση - Δίκλινο Δωμάτιο με Θέα Ακρόπολη',
      'Λεωφόρος Συγγρού 28', 'Ελλάδα', 'Payable 458,40 EUR',
    ]) {
      expect(text).toContain(expected);
    }
  });

  it('draws Polish names and groups thousands the Polish way', async () => {
    const text = await textOf(loadEnvelope('pl-invoice-jst-customer.json'));
    for (const expected of [
      'Testowa Firma Sp. z o.o.', 'Urząd Miasta Warsaw', 'ul. Główna 1', 'JST-001',
      'IT System Development for Local Government', 'Payable 61 500,00 PLN',
    ]) {
      expect(text).toContain(expected);
    }
  });

  it('titles credit notes and names the corrected invoice', async () => {
    const text = await textOf(loadEnvelope('gr-credit-note.json'));
    expect(text).toContain('Credit note');
    expect(text).toContain('Corrects GPR-001 (08/07/2024)');
    expect(text).toContain('iapr-mark: 400001932212332');
  });

  it('shows retained taxes, payment terms, instructions and advances', async () => {
    const freelance = await textOf(loadEnvelope('es-invoice-es-es-freelance.json'));
    expect(freelance).toContain('IRPF (retained)');
    expect(freelance).toContain('Retained tax -243,00');
    expect(freelance).toContain('Payable 1717,20 EUR');
    expect(freelance).toContain('IBAN ES06 0128 0011 3901 0008 1391');

    const provider = await textOf(loadEnvelope('es-invoice-es-es-vateqs-provider.json'));
    expect(provider).toContain('Due 30/10/2021: 45,72 EUR (40 %)');
    expect(provider).toContain('Deposit paid upfront');
    expect(provider).toContain('VAT surcharge');
    expect(provider).toContain('Due 89,30 EUR');
  });

  it('formats in the locale asked for', async () => {
    const text = await textOf(loadEnvelope('es-invoice-es-es.json'), 'en-US');
    expect(text).toContain('02/01/2022');
    expect(text).toContain('Payable 1,970.20 EUR');
  });

  it('keeps every digit of amounts a float could not hold', async () => {
    const envelope = loadEnvelope('es-invoice-es-es.json');
    envelope.doc.lines[0].item.price = '0.1234567890123456789';
    envelope.doc.totals.payable = '12345678901234567890.12';
    // A long price wraps inside its column, so compare without white space.
    const text = (await textOf(envelope)).replace(/\s/g, '');
    expect(text).toContain('0,1234567890123456789');
    expect(text).toContain('Payable12.345.678.901.234.567.890,12EUR');
  });

  it('embeds DejaVu Sans and dates the file from the document, not the clock', async () => {
    const bytes = await renderInvoicePdf(loadEnvelope('es-invoice-es-es.json'));
    const raw = latin1(bytes);
    expect(raw.startsWith('%PDF-')).toBe(true);
    expect(raw).toMatch(/\/BaseFont \/[A-Z]{6}\+DejaVuSans\b/);
    expect(raw).toMatch(/\/BaseFont \/[A-Z]{6}\+DejaVuSans-Bold\b/);
    expect(raw.match(/\/FontFile2/g)).toHaveLength(2);
    expect(raw).not.toContain('/Helvetica');
    expect(raw).toContain('(D:20220201000000Z)');
    expect(raw).not.toContain(`(D:${new Date().getUTCFullYear()}`);
  });

  it('renders the same bytes for the same input', async () => {
    const first = await renderInvoicePdf(loadEnvelope('gr-invoice-fee.json'));
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const second = await renderInvoicePdf(loadEnvelope('gr-invoice-fee.json'));
    expect(Buffer.from(second).equals(Buffer.from(first))).toBe(true);
    const other = await renderInvoicePdf(loadEnvelope('gr-invoice-fee.json'), { locale: 'en-GB' });
    expect(Buffer.from(other).equals(Buffer.from(first))).toBe(false);
  });

  it('breaks a 200-line invoice across pages, repeating the table header and counting pages', async () => {
    const envelope = loadEnvelope('es-invoice-es-es.json');
    const template = envelope.doc.lines[0];
    envelope.doc.lines = Array.from({ length: 200 }, (_, at) => ({
      ...structuredClone(template),
      i: at + 1,
      item: { ...template.item, name: `Service line ${at + 1}` },
    }));
    const pages = await pdfPageTexts(await renderInvoicePdf(envelope));

    expect(pages.length).toBeGreaterThan(3);
    pages.forEach((page, at) => {
      expect(page).toContain(`Page ${at + 1} of ${pages.length}`);
      expect(page).toContain(envelope.head.uuid);
    });
    for (const page of pages.filter((p) => p.includes('Service line'))) {
      expect(page).toContain('# Description Qty Unit Price Discounts Total');
    }
    const all = pages.join('\n');
    for (let line = 1; line <= 200; line++) expect(all).toContain(`Service line ${line} `);
    expect(pages.at(-1)).toContain('Payable 1970,20 EUR');
  });

  it('renders every invoice fixture with its number and payable amount', async () => {
    const invoices = loadEnvelopes().filter(({ envelope }) => envelope.doc.$schema.endsWith('/bill/invoice'));
    expect(invoices.length).toBeGreaterThan(50);
    for (const { file, envelope } of invoices) {
      const text = await textOf(envelope);
      const number = envelope.doc.series ? `${envelope.doc.series}-${envelope.doc.code}` : envelope.doc.code;
      expect(text, file).toContain(number);
      expect(text, file).toContain(envelope.doc.supplier.name);
      expect(text, file).toMatch(/Payable \S/);
    }
  });
});
