import { isDrawableLocale, regionOfCountry } from './locale.ts';

const DECIMAL = /^[+-]?\d+(\.\d+)?$/;
const PERCENT = /^([+-]?\d+(?:\.\d+)?)%$/;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
// Direction marks some locales put around digits; the PDF is drawn left to right and
// the fonts have nothing to draw for them.
const BIDI_MARKS = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
// Intl refuses more fraction digits than this.
const MAX_FRACTION_DIGITS = 100;

/** Locale-aware display text for the values of a GOBL document, which arrive as strings. */
export interface Formatter {
  locale: string;
  /** "1970.20" → "1.970,20" with exactly the digits given; anything not a decimal string is shown as is */
  decimal(value: unknown): string;
  /** "21.0%" → "21,0 %" */
  percent(value: unknown): string;
  /** "2022-02-01" → "01/02/2022" */
  date(value: unknown): string;
  /** "ES" → "España"; GOBL's "EL" → Greece */
  country(code: unknown): string;
}

/**
 * Numbers are handed to Intl as strings, which it formats as exact decimals
 * (never through a float), with as many fraction digits as the document wrote,
 * so "90.00" keeps both zeros and "0.3333" all four digits. Western digits are
 * forced: they are what the fonts draw and what every accountant reads.
 */
export function createFormatter(locale: string): Formatter {
  const decimals = new Map<number, Intl.NumberFormat>();
  const percents = new Map<number, Intl.NumberFormat>();
  const numberFormat = (cache: Map<number, Intl.NumberFormat>, style: 'decimal' | 'percent', digits: number) => {
    let format = cache.get(digits);
    if (!format) {
      format = new Intl.NumberFormat(locale, {
        style, numberingSystem: 'latn', minimumFractionDigits: digits, maximumFractionDigits: digits,
      });
      cache.set(digits, format);
    }
    return format;
  };
  const dates = new Intl.DateTimeFormat(locale, {
    year: 'numeric', month: '2-digit', day: '2-digit', timeZone: 'UTC', numberingSystem: 'latn',
  });
  // Country names are words, not digits: in a script the fonts cannot draw, say them in English.
  const regions = new Intl.DisplayNames([isDrawableLocale(locale) ? locale : 'en'], { type: 'region', fallback: 'code' });

  return {
    locale,
    decimal(value) {
      const text = textOf(value);
      if (!DECIMAL.test(text)) return text;
      const digits = fractionDigits(text);
      if (digits > MAX_FRACTION_DIGITS) return text;
      return clean(numberFormat(decimals, 'decimal', digits).format(text as Intl.StringNumericLiteral));
    },
    percent(value) {
      const text = textOf(value);
      const match = PERCENT.exec(text);
      if (!match) return text;
      const digits = fractionDigits(match[1]);
      if (digits > MAX_FRACTION_DIGITS) return text;
      const ratio = ratioOfPercent(match[1]);
      return clean(numberFormat(percents, 'percent', digits).format(ratio as Intl.StringNumericLiteral));
    },
    date(value) {
      const text = textOf(value);
      const match = ISO_DATE.exec(text);
      if (!match) return text;
      const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
      const at = new Date(Date.UTC(year, month - 1, day));
      // Date.UTC rolls 2022-02-30 over into March; such a date is shown as written.
      if (at.getUTCFullYear() !== year || at.getUTCMonth() !== month - 1 || at.getUTCDate() !== day) return text;
      return clean(dates.format(at));
    },
    country(code) {
      const text = textOf(code);
      if (!/^[A-Z]{2}$/.test(text)) return text;
      try {
        return regions.of(regionOfCountry(text)) ?? text;
      } catch {
        return text;
      }
    },
  };
}

/** "-12.50" → "12.50", "12.50" → "-12.50"; zero and non-decimals are left alone. */
export function negateDecimal(value: string): string {
  if (!DECIMAL.test(value) || /^[+-]?[0.]+$/.test(value)) return value;
  if (value.startsWith('-')) return value.slice(1);
  return `-${value.startsWith('+') ? value.slice(1) : value}`;
}

// Intl's percent style takes a ratio: "21.0" → "0.210", by moving the point in the
// text so no digit is lost or rounded.
function ratioOfPercent(percent: string): string {
  const negative = percent.startsWith('-');
  const [whole, fraction = ''] = percent.replace(/^[+-]/, '').split('.');
  const padded = whole.padStart(3, '0');
  const ratio = `${padded.slice(0, -2)}.${padded.slice(-2)}${fraction}`;
  return negative ? `-${ratio}` : ratio;
}

function fractionDigits(text: string): number {
  const dot = text.indexOf('.');
  return dot < 0 ? 0 : text.length - dot - 1;
}

function textOf(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  return '';
}

function clean(text: string): string {
  return text.replace(BIDI_MARKS, '');
}
