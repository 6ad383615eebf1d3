import { dejaVuSans } from './fonts.ts';
import { createFormatter } from './formatter.ts';
import { invoiceViewOf, type InvoiceView, type PartyView, type TextBlockView } from './invoice-view.ts';
import { COLOR, CONTENT, FONT, PAGE, SIZE, ensureSpace, style } from './layout.ts';
import { invoiceLocaleOf } from './locale.ts';
import { drawTable, type TableColumn } from './table.ts';

let loading: Promise<typeof import('pdfkit')> | undefined;

/**
 * PDFKit, loaded on the first render: with its fonts and codecs it is a tenth of what the
 * service would otherwise load at start, and most sessions render no PDF.
 */
export function pdfKit(): Promise<typeof import('pdfkit')> {
  loading ??= import('pdfkit').then((m) => m.default);
  return loading;
}

export interface RenderInvoiceOptions {
  /** BCP 47 tag for numbers and dates; default: the regime country's language (see invoiceLocaleOf) */
  locale?: string;
}

/**
 * Renders a GOBL invoice envelope as an A4 PDF with DejaVu Sans embedded. The
 * output depends only on the envelope and the options (the PDF's dates come from
 * the issue date, its file id from those), so rendering again gives the same bytes
 * on the same Node/ICU version. Throws RangeError for a malformed locale.
 */
export async function renderInvoicePdf(
  envelope: { head?: unknown; doc?: unknown },
  options: RenderInvoiceOptions = {},
): Promise<Uint8Array> {
  const docJson = typeof envelope.doc === 'object' && envelope.doc !== null ? (envelope.doc as Record<string, unknown>) : {};
  const locale = invoiceLocaleOf(docJson.$regime, options.locale);
  const view = invoiceViewOf(envelope, createFormatter(locale));

  const pdf = new (await pdfKit())({
    size: PAGE.size,
    margins: PAGE.margin,
    bufferPages: true,
    lang: locale,
    displayTitle: true,
    info: {
      Title: view.info.title,
      Author: view.info.author,
      Subject: view.info.subject,
      Creator: 'Silodesk',
      Producer: 'Silodesk',
      CreationDate: view.info.date,
      ModDate: view.info.date,
    },
  });
  const bytes = collect(pdf);
  const fonts = dejaVuSans();
  pdf.registerFont(FONT.regular, fonts.regular);
  pdf.registerFont(FONT.bold, fonts.bold);

  drawHeading(pdf, view);
  drawParties(pdf, [view.supplier, view.customer].filter((p): p is PartyView => p !== undefined));
  drawLines(pdf, view);
  drawAdjustments(pdf, view);
  drawTaxes(pdf, view);
  drawTotals(pdf, view);
  drawTextBlocks(pdf, [...view.payment, ...view.notes]);
  drawFooters(pdf, view);
  pdf.end();
  return bytes;
}

function drawHeading(doc: PDFKit.PDFDocument, view: InvoiceView): void {
  const top = CONTENT.top;
  const titleWidth = CONTENT.width * 0.5;
  style(doc, FONT.bold, SIZE.title).text(view.title, CONTENT.left, top, { width: titleWidth });
  if (view.labels.length > 0) {
    style(doc, FONT.regular, SIZE.heading, COLOR.muted).text(view.labels.join(' · '), CONTENT.left, doc.y + 2, { width: titleWidth });
  }
  const titleBottom = doc.y;

  const factsLeft = CONTENT.left + CONTENT.width * 0.55;
  const labelWidth = 78;
  const valueWidth = CONTENT.left + CONTENT.width - factsLeft - labelWidth;
  let y = top + 3;
  for (const fact of view.facts) {
    const labelHeight = style(doc, FONT.regular, SIZE.body, COLOR.muted).heightOfString(fact.label, { width: labelWidth });
    doc.text(fact.label, factsLeft, y, { width: labelWidth });
    const valueHeight = style(doc, FONT.bold, SIZE.body).heightOfString(fact.value, { width: valueWidth });
    doc.text(fact.value, factsLeft + labelWidth, y, { width: valueWidth });
    y += Math.max(labelHeight, valueHeight) + 2;
  }
  doc.x = CONTENT.left;
  doc.y = Math.max(titleBottom, y) + 18;
}

function drawParties(doc: PDFKit.PDFDocument, parties: PartyView[]): void {
  const gap = 24;
  const width = (CONTENT.width - gap) / 2;
  const heights = parties.map((party) => partyHeight(doc, party, width));
  ensureSpace(doc, Math.max(0, ...heights));
  const top = doc.y;
  let bottom = top;
  parties.forEach((party, at) => {
    const x = CONTENT.left + at * (width + gap);
    style(doc, FONT.bold, SIZE.small, COLOR.muted).text(party.heading.toUpperCase(), x, top, { width, characterSpacing: 0.6 });
    style(doc, FONT.bold, SIZE.name).text(party.name, x, doc.y + 2, { width });
    if (party.details.length > 0) {
      style(doc, FONT.regular, SIZE.body).text(party.details.join('\n'), x, doc.y + 2, { width, lineGap: 1 });
    }
    bottom = Math.max(bottom, doc.y);
  });
  doc.x = CONTENT.left;
  doc.y = bottom + 18;
}

function partyHeight(doc: PDFKit.PDFDocument, party: PartyView, width: number): number {
  let height = style(doc, FONT.bold, SIZE.small).heightOfString(party.heading, { width }) + 2;
  height += style(doc, FONT.bold, SIZE.name).heightOfString(party.name, { width }) + 2;
  if (party.details.length > 0) {
    height += style(doc, FONT.regular, SIZE.body).heightOfString(party.details.join('\n'), { width, lineGap: 1 });
  }
  return height;
}

function drawLines(doc: PDFKit.PDFDocument, view: InvoiceView): void {
  if (view.lines.length === 0) return;
  const adjusted = view.lines.some((line) => line.adjustments.length > 0);
  const fixed: TableColumn[] = [
    { header: 'Qty', width: 48, align: 'right' },
    { header: 'Unit', width: 36, align: 'left' },
    { header: 'Price', width: 64, align: 'right' },
    ...(adjusted ? [{ header: 'Discounts', width: 70, align: 'right' } as const] : []),
    { header: 'Total', width: 74, align: 'right' },
  ];
  // Wide enough for the longest line number (3 digits and more on long invoices).
  style(doc, FONT.regular, SIZE.body);
  const indexWidth = Math.max(22, ...view.lines.map((line) => doc.widthOfString(line.index) + 8));
  const descriptionWidth = CONTENT.width - indexWidth - fixed.reduce((sum, c) => sum + c.width, 0);
  const columns: TableColumn[] = [
    { header: '#', width: indexWidth, align: 'left' },
    { header: 'Description', width: descriptionWidth, align: 'left' },
    ...fixed,
  ];
  caption(doc, view.currency ? `Amounts in ${view.currency}` : '');
  drawTable(doc, columns, view.lines.map((line) => [
    { text: line.index },
    { text: line.name, details: line.details },
    { text: line.quantity },
    { text: line.unit },
    { text: line.price },
    ...(adjusted ? [{ text: line.adjustments.join('\n') }] : []),
    { text: line.total },
  ]));
  doc.y += 14;
}

function drawAdjustments(doc: PDFKit.PDFDocument, view: InvoiceView): void {
  if (view.adjustments.length === 0) return;
  const columns: TableColumn[] = [
    { header: 'Discounts and charges', width: CONTENT.width - 170, align: 'left' },
    { header: 'Percent', width: 70, align: 'right' },
    { header: 'Amount', width: 100, align: 'right' },
  ];
  drawTable(doc, columns, view.adjustments.map((a) => [{ text: a.reason }, { text: a.percent }, { text: a.amount }]));
  doc.y += 14;
}

function drawTaxes(doc: PDFKit.PDFDocument, view: InvoiceView): void {
  if (view.taxes.length === 0) return;
  const columns: TableColumn[] = [
    { header: 'Tax', width: 110, align: 'left' },
    { header: 'Rate', width: CONTENT.width - 370, align: 'left' },
    { header: 'Base', width: 100, align: 'right' },
    { header: 'Percent', width: 60, align: 'right' },
    { header: 'Amount', width: 100, align: 'right' },
  ];
  drawTable(doc, columns, view.taxes.map((t) => [
    { text: t.category }, { text: t.rate }, { text: t.base }, { text: t.percent }, { text: t.amount },
  ]));
  doc.y += 14;
}

function drawTotals(doc: PDFKit.PDFDocument, view: InvoiceView): void {
  if (view.totals.length === 0) return;
  const sizeOf = (weight: string) => (weight === 'strong' ? SIZE.name : SIZE.body);
  const fontOf = (weight: string) => (weight === 'normal' ? FONT.regular : FONT.bold);
  const rowHeight = (weight: string) => (weight === 'strong' ? 19 : 13);
  // The block widens to the left for amounts too long for the usual column, never wrapping one.
  const valueWidth = Math.max(110, ...view.totals.map((row) => style(doc, fontOf(row.weight), sizeOf(row.weight)).widthOfString(row.value) + 2));
  const width = Math.min(CONTENT.width, Math.max(270, valueWidth + 160));
  const left = CONTENT.left + CONTENT.width - width;
  ensureSpace(doc, view.totals.reduce((sum, row) => sum + rowHeight(row.weight), 0));

  for (const row of view.totals) {
    const top = doc.y;
    if (row.weight === 'strong') {
      doc.moveTo(left, top + 1).lineTo(left + width, top + 1).lineWidth(0.8).strokeColor(COLOR.text).stroke();
    }
    const textTop = top + (row.weight === 'strong' ? 5 : 2);
    style(doc, fontOf(row.weight), sizeOf(row.weight), row.weight === 'normal' ? COLOR.muted : COLOR.text)
      .text(row.label, left, textTop, { width: width - valueWidth, lineBreak: false });
    style(doc, fontOf(row.weight), sizeOf(row.weight))
      .text(row.value, left + width - valueWidth, textTop, { width: valueWidth, align: 'right', lineBreak: false });
    doc.y = top + rowHeight(row.weight);
  }
  doc.x = CONTENT.left;
  doc.y += 16;
}

function drawTextBlocks(doc: PDFKit.PDFDocument, blocks: TextBlockView[]): void {
  for (const block of blocks) {
    ensureSpace(doc, 30);
    style(doc, FONT.bold, SIZE.heading).text(block.heading, CONTENT.left, doc.y, { width: CONTENT.width });
    doc.y += 2;
    // Long notes flow on to the next page by themselves; only tables need headers repeated.
    for (const line of block.lines) {
      style(doc, FONT.regular, SIZE.body).text(line, CONTENT.left, doc.y, { width: CONTENT.width, lineGap: 1 });
    }
    doc.y += 10;
  }
}

function caption(doc: PDFKit.PDFDocument, text: string): void {
  if (!text) return;
  ensureSpace(doc, 40);
  style(doc, FONT.regular, SIZE.small, COLOR.muted).text(text, CONTENT.left, doc.y, { width: CONTENT.width, align: 'right' });
  doc.y += 2;
}

/** Envelope id, digest and "Page X of Y" on every page, drawn once the page count is known. */
function drawFooters(doc: PDFKit.PDFDocument, view: InvoiceView): void {
  const range = doc.bufferedPageRange();
  const heading = [view.title, view.number].filter(Boolean).join(' ');
  for (let page = range.start; page < range.start + range.count; page++) {
    doc.switchToPage(page);
    // Writing below the bottom margin would make pdfkit start a new page.
    doc.page.margins.bottom = 0;
    const top = PAGE.height - PAGE.margin.bottom + 18;
    doc.moveTo(CONTENT.left, top - 5).lineTo(CONTENT.left + CONTENT.width, top - 5).lineWidth(0.5).strokeColor(COLOR.rule).stroke();
    style(doc, FONT.regular, SIZE.footer, COLOR.muted);
    const line = { width: CONTENT.width, lineBreak: false } as const;
    doc.text(`Envelope ${view.envelope.uuid}`, CONTENT.left, top, line);
    doc.text(`Page ${page - range.start + 1} of ${range.count}`, CONTENT.left, top, { ...line, align: 'right' });
    doc.text(view.envelope.digest, CONTENT.left, top + 9, line);
    doc.text(heading, CONTENT.left, top + 9, { ...line, align: 'right' });
    doc.page.margins.bottom = PAGE.margin.bottom;
  }
}

function collect(doc: PDFKit.PDFDocument): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(new Uint8Array(Buffer.concat(chunks))));
    doc.on('error', reject);
  });
}
