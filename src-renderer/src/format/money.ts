import { userLocale } from './locale.ts';

/**
 * Amounts arrive as decimal strings ("1970.20", "-0.5") and are printed exactly:
 * `Intl.NumberFormat` formats a numeric string as the decimal it spells, so no
 * float ever touches an amount.
 */
const DECIMAL = /^[+-]?\d+(\.\d+)?$/;

type NumericString = `${number}`;
const formatters = new Map<string, Intl.NumberFormat>();

function formatter(currency: string | undefined, fractionDigits: number): Intl.NumberFormat {
  const key = `${currency ?? ''}|${fractionDigits}`;
  let found = formatters.get(key);
  if (!found) {
    const options: Intl.NumberFormatOptions = currency
      ? { style: 'currency', currency, currencyDisplay: 'symbol' }
      : { style: 'decimal' };
    const currencyDigits = currency ? (safeCurrencyDigits(currency) ?? 2) : 0;
    // A plain decimal keeps exactly the digits it is written with: GOBL's "1970.20" and "20.0" say
    // their precision, and a fault's stated and calculated figures must read alike.
    options.minimumFractionDigits = Math.min(currency ? currencyDigits : fractionDigits, 20);
    // Never round away digits the document states (unit prices often carry four).
    options.maximumFractionDigits = Math.min(Math.max(currencyDigits, fractionDigits), 20);
    found = new Intl.NumberFormat(userLocale, options);
    formatters.set(key, found);
  }
  return found;
}

function safeCurrencyDigits(currency: string): number | undefined {
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits;
  } catch {
    return undefined;
  }
}

function fractionDigitsOf(value: string): number {
  const dot = value.indexOf('.');
  return dot < 0 ? 0 : value.length - dot - 1;
}

/** "1970.20" + "EUR" → "€1,970.20" (in the user's locale); anything unreadable is shown as given. */
export function formatMoney(value: string | undefined, currency?: string): string {
  if (value === undefined || value === '') return '';
  const trimmed = value.trim();
  if (!DECIMAL.test(trimmed)) return value;
  try {
    return formatter(currency, fractionDigitsOf(trimmed)).format(trimmed as NumericString);
  } catch {
    // An unknown currency code: the number alone, then the code.
    return `${formatter(undefined, fractionDigitsOf(trimmed)).format(trimmed as NumericString)} ${currency ?? ''}`.trim();
  }
}

/** A plain decimal string ("20", "1.5") in the user's locale, exactly. */
export function formatDecimal(value: string | undefined): string {
  if (value === undefined || value === '') return '';
  const trimmed = value.trim();
  if (!DECIMAL.test(trimmed)) return value;
  return formatter(undefined, fractionDigitsOf(trimmed)).format(trimmed as NumericString);
}

/** GOBL percentages are strings like "21.0%": printed in the locale ("21 %" in French), exactly. */
export function formatPercent(value: string | undefined): string {
  if (!value) return '';
  const match = /^\s*([+-]?\d+(?:\.\d+)?)\s*%\s*$/.exec(value);
  if (!match) return value;
  const digits = fractionDigitsOf(match[1]);
  const percent = new Intl.NumberFormat(userLocale, { style: 'percent', maximumFractionDigits: Math.min(digits, 20) });
  return percent.format(hundredth(match[1]) as NumericString);
}

/** "21.5" → "0.215": the decimal point moved two places by hand, never through a float. */
function hundredth(decimal: string): string {
  const sign = decimal.startsWith('-') ? '-' : '';
  const [whole, fraction = ''] = decimal.replace(/^[+-]/, '').split('.');
  const padded = whole.padStart(3, '0');
  return `${sign}${padded.slice(0, -2)}.${padded.slice(-2)}${fraction}`;
}

/** Whether a decimal string is negative (credit notes, refunds), without parsing it as a float. */
export const isNegative = (value: string | undefined): boolean => !!value && value.trim().startsWith('-') && /[1-9]/.test(value);
