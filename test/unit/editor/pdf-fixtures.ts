// PDFs made here with pdfkit, as invoicing programs lay them out, and read back with pdf.js as
// the editor reads them (the same line grouping).
import { createRequire } from 'node:module';
import PDFDocument from 'pdfkit';
import { pdfLines } from '../../../src-renderer/src/screens/editor/pdf-text.ts';

const require = createRequire(import.meta.url);
const FONT = require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf');

/** Text placed at (x, y) points from the top left, as a layout program places it. */
export type Placed = [x: number, y: number, text: string];

export function makePdf(placed: Placed[], options: { image?: boolean } = {}): Promise<Uint8Array> {
  const doc = new PDFDocument({ size: 'A4', margin: 0 });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Uint8Array>((resolve) => doc.on('end', () => resolve(new Uint8Array(Buffer.concat(chunks)))));
  doc.font(FONT).fontSize(10);
  // A scan: shapes only, no text layer.
  if (options.image) doc.rect(50, 50, 400, 300).fill('#777');
  for (const [x, y, text] of placed) doc.text(text, x, y, { lineBreak: false });
  doc.end();
  return done;
}

export async function linesOf(bytes: Uint8Array): Promise<string[]> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const pdf = await pdfjs.getDocument({ data: bytes.slice(), isEvalSupported: false, useSystemFonts: false }).promise;
  try {
    return await pdfLines(pdf as never);
  } finally {
    await pdf.destroy();
  }
}

/** A Spanish supplier's invoice: letterhead, customer block, one line per rate, totals at the bottom right. */
export const spanishInvoice: Placed[] = [
  [50, 40, 'Papelería Ejemplo S.L.'],
  [50, 54, 'Calle Mayor 1, 28013 Madrid'],
  [50, 68, 'NIF: B98602642'],
  [380, 40, 'FACTURA'],
  [380, 58, 'Nº factura: FV-2026-0042'],
  [380, 72, 'Fecha: 14/03/2026'],
  [380, 86, 'Vencimiento: 13/04/2026'],
  [50, 120, 'Cliente: Sample Consumer S.A.'],
  [50, 134, 'CIF: ESA28017895'],
  [50, 200, 'Concepto'], [300, 200, 'Cantidad'], [380, 200, 'Precio'], [460, 200, 'Importe'],
  [50, 216, 'Cuadernos A4'], [300, 216, '100'], [380, 216, '2,50'], [460, 216, '250,00 €'],
  [50, 230, 'Tóner'], [300, 230, '2'], [380, 230, '500,00'], [460, 230, '1.000,00 €'],
  [330, 300, 'Base imponible'], [460, 300, '1.250,00 €'],
  [330, 314, 'IVA 21%'], [460, 314, '262,50 €'],
  [330, 332, 'Total factura'], [460, 332, '1.512,50 €'],
];

/** An English invoice with a month-name date, a US-style amount and a VAT number with its prefix. */
export const englishInvoice: Placed[] = [
  [50, 40, 'Northwind Traders Ltd'],
  [50, 54, 'VAT No: GB123456789'],
  [380, 40, 'Invoice number: INV-0007'],
  [380, 54, 'Invoice date: March 2, 2026'],
  [380, 68, 'Due date: 1 April 2026'],
  [50, 200, 'Consulting'], [460, 200, '£1,200.00'],
  [330, 300, 'Subtotal'], [460, 300, '£1,200.00'],
  [330, 314, 'VAT 20%'], [460, 314, '£240.00'],
  [330, 328, 'Total due'], [460, 328, '£1,440.00'],
];
