/**
 * The entry list's sort columns, derived from a document's snippet at write time and
 * stored on the entry row (each with its index), so sorting by any of them stays an
 * index walk. Absent values are NULL: the list puts them after the others.
 */
export interface SortKeys {
  due_date: string | null;
  /** series-code, lower-cased, each digit run led by its length: `inv-2` sorts before `inv-10` */
  number_key: string | null;
  supplier_key: string | null;
  customer_key: string | null;
  currency: string | null;
  /** signed amounts (a credit note's are negative) in ten-thousandths, for ordering only */
  net_e4: number | null;
  tax_e4: number | null;
  total_e4: number | null;
}

export const SORT_KEY_COLUMNS = ['due_date', 'number_key', 'supplier_key', 'customer_key', 'currency', 'net_e4', 'tax_e4', 'total_e4'] as const;

const TEXT_KEY_CHARS = 120;
/** Amounts beyond this (in ten-thousandths) sort as this: JavaScript numbers stay exact below it. */
const MAX_E4 = BigInt(Number.MAX_SAFE_INTEGER);

/** Document types whose amounts count against the others (shown and summed negative). */
export const NEGATIVE_TYPES: ReadonlySet<string> = new Set(['credit-note']);

export function sortKeysOf(snippet: Record<string, string>): SortKeys {
  const sign = snippet.type && NEGATIVE_TYPES.has(snippet.type) ? -1n : 1n;
  return {
    due_date: dateOrNull(snippet.due_date),
    number_key: numberKey(documentNumber(snippet)),
    supplier_key: textKey(snippet.supplier),
    customer_key: textKey(snippet.customer),
    currency: /^[A-Z]{3}$/.test(snippet.currency ?? '') ? snippet.currency : null,
    net_e4: amountE4(snippet.net, sign),
    tax_e4: amountE4(snippet.tax, sign),
    total_e4: amountE4(snippet.total, sign),
  };
}

/** GOBL presents a number as series and code joined by a dash. */
export function documentNumber(snippet: Record<string, string>): string | undefined {
  const { series, code } = snippet;
  if (series && code) return `${series}-${code}`;
  return code || undefined;
}

/** Natural order for document numbers: case folded, each run of digits led by its length (digitRunsLed). */
export function numberKey(number: string | undefined): string | null {
  if (!number) return null;
  return digitRunsLed(number.normalize('NFKC').toLowerCase().slice(0, TEXT_KEY_CHARS));
}

/**
 * Each run of digits as its length in two digits and its digits without leading zeros:
 * `inv-2` is `inv-012`, `inv-10` is `inv-0210`, and they sort as numbers do. A run sorts
 * against any other character as a digit, as it starts with one. Until migration 0034 a
 * run was padded with zeros to 20 digits, the same order at twice the bytes in the row
 * and its index; a padded key read here gives the key of the number it was made from.
 * Past 99 digits (in a number of at most 120 characters) runs sort by their digits.
 */
export function digitRunsLed(key: string): string {
  return key.replace(/\d+/g, (run) => {
    const digits = run.replace(/^0+(?=\d)/, '');
    return String(Math.min(digits.length, 99)).padStart(2, '0') + digits;
  });
}

/** Names sort case- and accent-insensitively: `Élan` with the e's. */
export function textKey(text: string | undefined): string | null {
  if (!text) return null;
  const key = text.normalize('NFKD').replace(/\p{M}+/gu, '').toLowerCase().trim().slice(0, TEXT_KEY_CHARS);
  return key === '' ? null : key;
}

function dateOrNull(value: string | undefined): string | null {
  return value && /^\d{4}-\d{2}-\d{2}$/.test(value) ? value : null;
}

/**
 * A decimal string as a whole number of ten-thousandths, rounded half away from zero,
 * read digit by digit (never through a float), clamped to what a JS number holds exactly.
 */
export function amountE4(value: string | undefined, sign: bigint = 1n): number | null {
  const match = value ? /^\s*([+-]?)(\d+)(?:\.(\d+))?\s*$/.exec(value) : null;
  if (!match) return null;
  const [, minus, whole, fraction = ''] = match;
  let units = BigInt(whole) * 10_000n + BigInt(fraction.slice(0, 4).padEnd(4, '0'));
  if (fraction.length > 4 && fraction[4] >= '5') units += 1n;
  if (minus === '-') units = -units;
  units *= sign;
  if (units > MAX_E4) units = MAX_E4;
  if (units < -MAX_E4) units = -MAX_E4;
  return Number(units);
}
