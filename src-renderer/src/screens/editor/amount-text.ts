// Amounts as invoices print them ("1.234,56 €", "$1,234.56", "1234.5") read into plain decimal
// strings ("1234.56"), without floats. Ambiguous text is not an amount.

/** A printed amount, with the decimal mark decided by its shape. */
const AMOUNT = /(?<![\d.,])-?\d{1,3}(?:([.,' \u00a0])\d{3})*(?:([.,])\d{1,2})?(?![\d])|(?<![\d.,])-?\d+(?:([.,])\d{1,2})?(?![\d])/g;

/** "1.234,56" → "1234.56"; "1,234.56" → "1234.56"; "12,5" → "12.50"; undefined when it is no amount. */
export function parseAmount(text: string): string | undefined {
  const trimmed = text.trim();
  const match = /^(-?)(\d{1,3}(?:[.,' \u00a0]\d{3})+|\d+)(?:([.,])(\d{1,2}))?$/.exec(trimmed);
  if (!match) return undefined;
  const [, sign, whole, mark, fraction] = match;
  const groupMark = /\d([.,' \u00a0])\d{3}/.exec(whole)?.[1];
  // "1.234" alone: a thousands group, or a 3-decimal amount? Invoices print 2 decimals: a group.
  if (groupMark && mark && groupMark === mark) return undefined;
  const digits = whole.replace(/[.,' \u00a0]/g, '');
  const cents = fraction === undefined ? '00' : fraction.padEnd(2, '0');
  return `${sign}${digits.replace(/^0+(?=\d)/, '')}.${cents}`;
}

/** Every amount printed in a line, in order. */
export function amountsIn(line: string): string[] {
  const found: string[] = [];
  for (const match of line.matchAll(AMOUNT)) {
    // A percent is no amount ("21 %", "21,0%").
    const after = line.slice(match.index + match[0].length);
    if (/^\s?%/.test(after)) continue;
    const amount = parseAmount(match[0]);
    if (amount !== undefined) found.push(amount);
  }
  return found;
}

/** Compares two decimal strings exactly (for "the largest total on the page"). */
export function compareDecimals(a: string, b: string): number {
  const [aw, af = ''] = a.replace('-', '').split('.');
  const [bw, bf = ''] = b.replace('-', '').split('.');
  const sa = a.startsWith('-') ? -1 : 1;
  const sb = b.startsWith('-') ? -1 : 1;
  if (sa !== sb) return sa - sb;
  const width = Math.max(aw.length, bw.length);
  const fw = Math.max(af.length, bf.length);
  const ka = aw.padStart(width, '0') + af.padEnd(fw, '0');
  const kb = bw.padStart(width, '0') + bf.padEnd(fw, '0');
  return ka === kb ? 0 : (ka < kb ? -1 : 1) * sa;
}
