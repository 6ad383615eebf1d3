// Regime normalisers on tax combos and whole invoices: PT regions and rate migration,
// IT extension renames, MX post-code migration.
import { describe, expect, it } from 'vitest';
import { normalise } from './regimes-helpers.ts';

describe('PT tax combos', () => {
  const combo = (c: Record<string, unknown>) => normalise('PT', 'tax.Combo', { cat: 'VAT', ...c });

  it('defaults the region to the mainland and keeps a given one', () => {
    expect(combo({}).ext).toEqual({ 'pt-region': 'PT' });
    expect(combo({ ext: { 'pt-region': 'PT-AC' } }).ext).toEqual({ 'pt-region': 'PT-AC' });
    expect(combo({ ext: { random: '1' } }).ext).toEqual({ 'pt-region': 'PT', random: '1' });
  });

  it('uses the ISO country of a foreign combo', () => {
    expect(combo({ country: 'EL' }).ext).toEqual({ 'pt-region': 'GR' });
    expect(combo({ country: 'ES', ext: { 'pt-region': 'PT' } }).ext).toEqual({ 'pt-region': 'ES' });
    expect(combo({ country: 'EU' }).ext).toBeUndefined();
  });

  it('leaves other categories alone', () => {
    expect(normalise('PT', 'tax.Combo', { cat: 'IRS' }).ext).toBeUndefined();
  });
});

describe('PT exempt rate migration', () => {
  it('turns an exempt+… rate into the exempt key with its SAF-T exemption code', () => {
    const inv = normalise('PT', 'bill.Invoice', {
      lines: [{ taxes: [{ cat: 'VAT', rate: 'exempt+outlay', ext: { 'pt-region': 'PT' } }] }],
      charges: [{ taxes: [{ cat: 'VAT', rate: 'exempt+margin-scheme+travel' }] }],
    });
    // GOBL replaces the whole ext, so a region set earlier is lost here.
    expect(inv.lines[0].taxes[0]).toEqual({ cat: 'VAT', key: 'exempt', ext: { 'pt-saft-exemption': 'M01' } });
    expect(inv.charges[0].taxes[0].ext).toEqual({ 'at-tax-code': 'exempt', 'pt-saft-exemption': 'M12' });
  });

  it('renames the old pt-exemption-code extension', () => {
    const inv = normalise('PT', 'bill.Invoice', {
      discounts: [{ taxes: [{ cat: 'VAT', key: 'exempt', ext: { 'pt-exemption-code': 'M07', 'pt-region': 'PT' } }] }],
    });
    expect(inv.discounts[0].taxes[0].ext).toEqual({ 'pt-region': 'PT', 'pt-saft-exemption': 'M07' });
  });

  it('keeps an unknown exempt rate', () => {
    const inv = normalise('PT', 'bill.Invoice', { lines: [{ taxes: [{ cat: 'VAT', rate: 'exempt+unknown' }] }] });
    expect(inv.lines[0].taxes[0]).toEqual({ cat: 'VAT', rate: 'exempt+unknown' });
  });
});

describe('IT tax combos', () => {
  it('renames the pre-addon SDI extensions', () => {
    const combo = normalise('IT', 'tax.Combo', { cat: 'VAT', ext: { 'it-sdi-nature': 'N2.2', 'it-sdi-retained-tax': 'RT01' } });
    expect(combo.ext).toEqual({ 'it-sdi-exempt': 'N2.2', 'it-sdi-retained': 'RT01' });
  });
});

describe('MX invoices', () => {
  it('copies the supplier post code to the issue place and drops the old extension', () => {
    const inv = normalise('MX', 'bill.Invoice', {
      supplier: { ext: { 'mx-cfdi-post-code': '21000', 'mx-cfdi-fiscal-regime': '601' } },
      customer: { ext: { 'mx-cfdi-post-code': '65000' } },
    });
    expect(inv.tax).toEqual({ ext: { 'mx-cfdi-issue-place': '21000' } });
    expect(inv.supplier.ext).toEqual({ 'mx-cfdi-fiscal-regime': '601' });
    expect(inv.customer).toEqual({ addresses: [{ code: '65000' }] });
  });

  it('falls back to the first supplier address and keeps a stated issue place', () => {
    const fromAddress = normalise('MX', 'bill.Invoice', { supplier: { addresses: [{ code: '86991' }] } });
    expect(fromAddress.tax.ext).toEqual({ 'mx-cfdi-issue-place': '86991' });
    const stated = normalise('MX', 'bill.Invoice', {
      tax: { ext: { 'mx-cfdi-issue-place': '11111' } },
      supplier: { addresses: [{ code: '86991' }] },
    });
    expect(stated.tax.ext).toEqual({ 'mx-cfdi-issue-place': '11111' });
  });
});
