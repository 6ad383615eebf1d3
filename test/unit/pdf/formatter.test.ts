import { describe, expect, it } from 'vitest';
import { createFormatter, negateDecimal } from '../../../src-main/core/pdf/formatter.ts';
import { invoiceLocaleOf, isLocaleTag } from '../../../src-main/core/pdf/locale.ts';

// Some locales group with no-break spaces; compare with plain ones.
const plain = (text: string) => text.replace(/[\u00a0\u202f]/g, ' ');

describe('createFormatter', () => {
  it('formats decimal strings in the locale with exactly the digits given', () => {
    const es = createFormatter('es-ES');
    expect(es.decimal('1970.20')).toBe('1970,20');
    expect(es.decimal('12345.5')).toBe('12.345,5');
    expect(es.decimal('0.3333')).toBe('0,3333');
    expect(es.decimal('20')).toBe('20');
    expect(createFormatter('en-US').decimal('1234567.00')).toBe('1,234,567.00');
    expect(plain(createFormatter('pl-PL').decimal('61500.00'))).toBe('61 500,00');
  });

  it('keeps digits a float would lose', () => {
    const en = createFormatter('en');
    expect(en.decimal('12345678901234567890.12')).toBe('12,345,678,901,234,567,890.12');
    expect(en.decimal('0.1234567890123456789')).toBe('0.1234567890123456789');
    expect(en.percent('33.333333333333333333%')).toBe('33.333333333333333333%');
  });

  it('shows what is not a decimal as it is', () => {
    const en = createFormatter('en');
    expect(en.decimal('1e5')).toBe('1e5');
    expect(en.decimal('abc')).toBe('abc');
    expect(en.decimal(undefined)).toBe('');
    expect(en.date('2022-02-30')).toBe('2022-02-30');
    expect(en.percent('21')).toBe('21');
  });

  it('formats percents and ISO dates', () => {
    const es = createFormatter('es-ES');
    expect(plain(es.percent('21.0%'))).toBe('21,0 %');
    expect(plain(es.percent('5.2%'))).toBe('5,2 %');
    expect(es.date('2022-02-01')).toBe('01/02/2022');
    expect(createFormatter('en-US').date('2022-02-01')).toBe('02/01/2022');
    expect(createFormatter('de-DE').date('2022-02-01')).toBe('01.02.2022');
  });

  it('uses western digits and drops direction marks for any locale', () => {
    const ar = createFormatter('ar-EG');
    expect(ar.decimal('1234.50')).toMatch(/^[0-9.,\u066b\u066c]+$/);
    expect(ar.date('2022-02-01')).not.toMatch(/[\u200e\u200f\u061c]/);
    expect(ar.country('ES')).toBe('Spain');
  });

  it('names countries in the locale, Greece also by its GOBL code EL', () => {
    expect(createFormatter('el-GR').country('EL')).toBe('Ελλάδα');
    expect(createFormatter('es-ES').country('ES')).toBe('España');
  });
});

describe('negateDecimal', () => {
  it('flips the sign of non-zero decimals only', () => {
    expect(negateDecimal('180.00')).toBe('-180.00');
    expect(negateDecimal('-1.5')).toBe('1.5');
    expect(negateDecimal('0.00')).toBe('0.00');
    expect(negateDecimal('x')).toBe('x');
  });
});

describe('invoiceLocaleOf', () => {
  it.each([
    ['ES', 'es-ES'],
    ['EL', 'el-GR'],
    ['PL', 'pl-PL'],
    ['DE', 'de-DE'],
    ['AR', 'es-AR'],
    ['AE', 'en-AE'],
    ['IN', 'en-IN'],
    ['US', 'en-US'],
    [undefined, 'en'],
    ['not a country', 'en'],
  ])('regime %s → %s', (regime, locale) => {
    expect(invoiceLocaleOf(regime)).toBe(locale);
  });

  it('prefers the requested locale, canonicalised', () => {
    expect(invoiceLocaleOf('ES', 'EN-us')).toBe('en-US');
    expect(() => invoiceLocaleOf('ES', 'not_a_locale!')).toThrow(RangeError);
    expect(isLocaleTag('el-GR')).toBe(true);
    expect(isLocaleTag('x')).toBe(false);
  });
});
