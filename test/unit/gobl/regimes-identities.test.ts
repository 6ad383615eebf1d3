// Party identities and parties as the regimes normalise them in their own documents.
import { describe, expect, it } from 'vitest';
import { normalise } from './regimes-helpers.ts';

const identity = (regime: string, id: Record<string, string>) => normalise(regime, 'org.Identity', { ...id });

describe('DE tax number (Steuernummer)', () => {
  it.each([
    ['123 / 456.78901', '123/456/78901'],
    ['12345678901', '123/456/78901'],
    ['1234567890', '12/345/67890'],
    ['12a3b4c5d6e7f8g9h0i1', '123/456/78901'],
    ['123456789', '123456789'],
    ['1234567890123', '1234567890123'],
    ['123/4567/8910', '123/4567/8910'],
    ['123.4567.8910', '123/456/78910'],
  ])('%j → %j', (code, expected) => {
    expect(identity('DE', { key: 'de-tax-number', code }).code).toBe(expected);
  });

  it('only in German documents, and only for the tax-number key', () => {
    expect(identity('ES', { key: 'de-tax-number', code: '12345678901' }).code).toBe('12345678901');
    expect(identity('DE', { key: 'other', code: '12345678901' }).code).toBe('12345678901');
  });
});

describe('SE organisation and personal numbers', () => {
  it.each([
    ['ON', '556036-0793', '5560360793'],
    ['ON', '  556036 0793  ', '5560360793'],
    ['ON', '5560360793-01', '5560360793'],
    ['ON', 'ABCDEFGHIJK', 'ABCDEFGHIJK'],
    ['PN', '800101+0017', '800101+0017'],
    ['PN', '  800101-0017  ', '800101-0017'],
    ['PN', '8001010017', '800101-0017'],
    ['PN', '80010-001', '80010-001'],
    ['CN', '8001610017', '800161-0017'],
    ['CN', '8001+00177', '8001+00177'],
    ['XX', '1234567890', '1234567890'],
  ])('%s %j → %j', (type, code, expected) => {
    expect(identity('SE', { type, code }).code).toBe(expected);
  });
});

describe('NO, IN, SG, IT identities', () => {
  it('NO organisation numbers keep only digits', () => {
    expect(identity('NO', { type: 'ON', code: '923 456 783' }).code).toBe('923456783');
  });

  it('IN PAN and HSN codes', () => {
    expect(identity('IN', { type: 'PAN', code: 'abcde-1234-f' }).code).toBe('ABCDE1234F');
    expect(identity('IN', { type: 'HSN', code: '1234.56' }).code).toBe('123456');
  });

  it('SG UEN codes lose separators and the SG prefix', () => {
    expect(identity('SG', { type: 'UEN', code: 'sg 201234567-a' }).code).toBe('201234567A');
  });

  it('IT fiscal codes are cleaned like tax codes', () => {
    expect(identity('IT', { key: 'it-fiscal-code', code: 'it rss mra 85t10 a562s' }).code).toBe('RSSMRA85T10A562S');
  });
});

describe('IT parties', () => {
  it('moves an individual fiscal code from the tax ID to the identities', () => {
    const party = normalise('IT', 'org.Party', {
      name: 'Mario Rossi',
      tax_id: { country: 'IT', code: 'RSSMRA85T10A562S', type: 'individual' },
    });
    expect(party.tax_id).toEqual({ country: 'IT' });
    expect(party.identities).toEqual([{ key: 'it-fiscal-code', code: 'RSSMRA85T10A562S' }]);
  });

  it('replaces an existing fiscal-code identity', () => {
    const party = normalise('IT', 'org.Party', {
      tax_id: { country: 'IT', code: 'RSSMRA85T10A562S', type: 'individual' },
      identities: [{ type: 'X', code: '1' }, { key: 'it-fiscal-code', code: 'OLD' }],
    });
    expect(party.identities).toEqual([{ type: 'X', code: '1' }, { key: 'it-fiscal-code', code: 'RSSMRA85T10A562S' }]);
  });

  it('leaves companies and foreign tax IDs alone', () => {
    const company = { tax_id: { country: 'IT', code: '12345670017' } };
    expect(normalise('IT', 'org.Party', structuredClone(company))).toEqual(company);
    const foreign = { tax_id: { country: 'ES', code: 'B12345678', type: 'individual' } };
    expect(normalise('IT', 'org.Party', structuredClone(foreign))).toEqual(foreign);
  });
});

describe('BR parties', () => {
  it('fills address countries from the tax ID country', () => {
    const party = normalise('BR', 'org.Party', {
      tax_id: { country: 'BR', code: '1' },
      addresses: [{ locality: 'São Paulo' }, { locality: 'Lisboa', country: 'PT' }],
    });
    expect(party.addresses.map((a: { country?: string }) => a.country)).toEqual(['BR', 'PT']);
  });

  it('uses the ISO code for a Greek tax ID, and else the first identity with a country', () => {
    expect(normalise('BR', 'org.Party', { tax_id: { country: 'EL' }, addresses: [{}] }).addresses[0].country).toBe('GR');
    expect(normalise('BR', 'org.Party', { identities: [{ code: 'x' }, { country: 'AR' }], addresses: [{}] }).addresses[0].country).toBe('AR');
  });

  it('only in Brazilian documents', () => {
    expect(normalise('PT', 'org.Party', { tax_id: { country: 'BR' }, addresses: [{}] }).addresses[0].country).toBeUndefined();
  });
});
