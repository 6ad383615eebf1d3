// The text layer of a PDF as lines of text, top to bottom, as a person reads the page. pdf.js
// gives positioned pieces of text; pieces on one baseline become one line, in x order.
import type { PDFDocumentProxy } from 'pdfjs-dist';

/** The part of a pdf.js text item the grouping reads. */
export interface TextPiece {
  str: string;
  transform: number[];
  width: number;
}

/** Pages read at most: invoices are short, and a 500-page PDF is no invoice to guess from. */
const MAX_PAGES = 5;
/** Pieces whose baselines differ by less than this (in PDF units) are one line. */
const SAME_LINE = 2.5;
/** A gap wider than this (in PDF units, about three spaces) separates columns: a tab in the line. */
const COLUMN_GAP = 18;

/** Groups one page's pieces into lines; columns of one line are separated by a tab. */
export function linesOfPage(pieces: TextPiece[]): string[] {
  const placed = pieces
    .filter((p) => p.str.trim() !== '')
    .map((p) => ({ text: p.str, x: p.transform[4], y: p.transform[5], end: p.transform[4] + p.width }));
  placed.sort((a, b) => b.y - a.y || a.x - b.x);
  const lines: Array<typeof placed> = [];
  for (const piece of placed) {
    const line = lines[lines.length - 1];
    if (line && Math.abs(line[0].y - piece.y) < SAME_LINE) line.push(piece);
    else lines.push([piece]);
  }
  return lines.map((line) => {
    line.sort((a, b) => a.x - b.x);
    let text = '';
    let end = Number.NEGATIVE_INFINITY;
    for (const piece of line) {
      // A visible gap between pieces is a space; touching pieces are one word.
      const gap = piece.x - end;
      if (text !== '' && gap > COLUMN_GAP) text += '\t';
      else if (text !== '' && gap > 1 && !text.endsWith(' ') && !piece.text.startsWith(' ')) text += ' ';
      text += piece.text;
      end = piece.end;
    }
    return text.replace(/[^\S\t]+/g, ' ').replace(/ ?\t ?/g, '\t').trim();
  });
}

/** The lines of the first pages of an opened PDF (none for a scan without a text layer). */
export async function pdfLines(pdf: PDFDocumentProxy): Promise<string[]> {
  const lines: string[] = [];
  for (let n = 1; n <= Math.min(pdf.numPages, MAX_PAGES); n++) {
    const page = await pdf.getPage(n);
    const content = await page.getTextContent();
    lines.push(...linesOfPage(content.items.filter((item): item is TextPiece & typeof item => 'str' in item)));
    page.cleanup();
  }
  return lines;
}
