// Reads the text back out of a PDF with pdf.js, for assertions on what a reader sees.

// pdf.js comes either as pdfjs-dist or bundled in unpdf, depending on the dev
// dependencies of the day; both expose the same getDocument.
async function loadPdfjs(): Promise<any> {
  const direct = 'pdfjs-dist/legacy/build/pdf.mjs';
  const bundled = 'unpdf';
  try {
    return await import(direct);
  } catch {
    const unpdf = await import(bundled);
    return unpdf.getResolvedPDFJS();
  }
}

/** The text of each page, items joined with spaces and runs of white space collapsed. */
export async function pdfPageTexts(bytes: Uint8Array): Promise<string[]> {
  const pdfjs = await loadPdfjs();
  const document = await pdfjs.getDocument({ data: bytes.slice(), isEvalSupported: false, useSystemFonts: false }).promise;
  try {
    const pages: string[] = [];
    for (let number = 1; number <= document.numPages; number++) {
      const page = await document.getPage(number);
      const content = await page.getTextContent();
      const text = content.items.map((item: { str?: string }) => item.str ?? '').join(' ');
      pages.push(text.replace(/\s+/g, ' '));
    }
    return pages;
  } finally {
    await document.destroy();
  }
}
