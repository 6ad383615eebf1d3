import { COLOR, CONTENT, FONT, SIZE, ensureSpace, style } from './layout.ts';

export interface TableColumn {
  header: string;
  width: number;
  align: 'left' | 'right';
}

export interface TableCell {
  text: string;
  /** smaller, muted lines under the text */
  details?: string[];
}

const PAD_X = 3;
const PAD_Y = 3.5;
const DETAIL_GAP = 1;

/**
 * Draws a table from doc.y down, starting a new page whenever the next row would
 * not fit and repeating the header row there. A row is never split; one taller
 * than a whole page is cut off with an ellipsis rather than overflowing the footer.
 */
export function drawTable(doc: PDFKit.PDFDocument, columns: TableColumn[], rows: TableCell[][]): void {
  const header = columns.map((c) => ({ text: c.header }));
  const headerHeight = rowHeight(doc, columns, header, FONT.bold);
  const tallest = CONTENT.bottom - CONTENT.top - headerHeight;

  ensureSpace(doc, headerHeight + (rows.length > 0 ? Math.min(rowHeight(doc, columns, rows[0]), tallest) : 0));
  drawRow(doc, columns, header, headerHeight, FONT.bold, true);
  for (const row of rows) {
    const height = Math.min(rowHeight(doc, columns, row), tallest);
    if (doc.y + height > CONTENT.bottom) {
      doc.addPage();
      doc.y = CONTENT.top;
      drawRow(doc, columns, header, headerHeight, FONT.bold, true);
    }
    drawRow(doc, columns, row, height, FONT.regular, false);
  }
}

function rowHeight(doc: PDFKit.PDFDocument, columns: TableColumn[], row: TableCell[], font: string = FONT.regular): number {
  let tallest = 0;
  columns.forEach((column, at) => {
    const cell = row[at] ?? { text: '' };
    const width = column.width - 2 * PAD_X;
    let height = 0;
    if (cell.text) height += style(doc, font, SIZE.body).heightOfString(cell.text, { width });
    if (cell.details?.length) {
      height += DETAIL_GAP + style(doc, FONT.regular, SIZE.small).heightOfString(cell.details.join('\n'), { width });
    }
    tallest = Math.max(tallest, height);
  });
  return tallest + 2 * PAD_Y;
}

function drawRow(
  doc: PDFKit.PDFDocument, columns: TableColumn[], row: TableCell[], height: number, font: string, band: boolean,
): void {
  const top = doc.y;
  if (band) doc.rect(CONTENT.left, top, CONTENT.width, height).fill(COLOR.band);

  let x = CONTENT.left;
  columns.forEach((column, at) => {
    const cell = row[at] ?? { text: '' };
    const width = column.width - 2 * PAD_X;
    let y = top + PAD_Y;
    // `height` bounds each text box, which also stops pdfkit from breaking the page on its own.
    const room = () => Math.max(0, top + height - y);
    if (cell.text) {
      style(doc, font, SIZE.body);
      const textHeight = doc.heightOfString(cell.text, { width });
      doc.text(cell.text, x + PAD_X, y, { width, align: column.align, height: room() + 1, ellipsis: true });
      y += textHeight;
    }
    if (cell.details?.length) {
      y += DETAIL_GAP;
      style(doc, FONT.regular, SIZE.small, COLOR.muted)
        .text(cell.details.join('\n'), x + PAD_X, y, { width, align: column.align, height: room() + 1, ellipsis: true });
    }
    x += column.width;
  });

  doc.moveTo(CONTENT.left, top + height).lineTo(CONTENT.left + CONTENT.width, top + height)
    .lineWidth(0.5).strokeColor(COLOR.rule).stroke();
  doc.x = CONTENT.left;
  doc.y = top + height;
}
