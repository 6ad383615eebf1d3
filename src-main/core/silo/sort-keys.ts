/**
 * The entry list's sort columns, derived from a document's snippet at write time and
 * stored on the entry row (each with its index), so sorting by any of them stays an
 * index walk. Absent values are NULL: the list puts them after the others.
 */
export interface SortKeys {
  due_date: string | null;
  /** series-code, lower-cased, digit runs zero-padded: `inv-2` sorts before `inv-10` */
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
const DIGIT_RUN_WIDTH = 20;
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

/** Natural order for document numbers: case folded, each run of digits padded to a fixed width. */
export function numberKey(number: string | undefined): string | null {
  if (!number) return null;
  const folded = number.normalize('NFKC').toLowerCase().slice(0, TEXT_KEY_CHARS);
  return folded.replace(/\d+/g, (run) => (run.length >= DIGIT_RUN_WIDTH ? run : run.padStart(DIGIT_RUN_WIDTH, '0')));
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
