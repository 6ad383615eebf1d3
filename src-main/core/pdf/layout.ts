// Page geometry and type styles shared by the invoice sections (points; A4 portrait).

export const PAGE = {
  size: 'A4',
  width: 595.28,
  height: 841.89,
  margin: { top: 42, left: 42, right: 42, bottom: 64 },
} as const;

export const CONTENT = {
  left: PAGE.margin.left,
  top: PAGE.margin.top,
  width: PAGE.width - PAGE.margin.left - PAGE.margin.right,
  /** lowest y content may reach; the footer lives below it */
  bottom: PAGE.height - PAGE.margin.bottom,
} as const;

export const FONT = { regular: 'DejaVuSans', bold: 'DejaVuSans-Bold' } as const;

export const SIZE = { title: 20, heading: 9.5, name: 10.5, body: 8.5, small: 7, footer: 6.5 } as const;

export const COLOR = { text: '#1a1a1a', muted: '#666666', rule: '#cccccc', band: '#eeeeee' } as const;

/** Starts a new page when `height` more points would not fit on this one; true when it did. */
export function ensureSpace(doc: PDFKit.PDFDocument, height: number): boolean {
  if (doc.y + height <= CONTENT.bottom || doc.y <= CONTENT.top) return false;
  doc.addPage();
  doc.y = CONTENT.top;
  return true;
}

/** Sets font, size and colour in one go. */
export function style(doc: PDFKit.PDFDocument, font: string, size: number, color: string = COLOR.text): PDFKit.PDFDocument {
  return doc.font(font).fontSize(size).fillColor(color);
}
