// Tax IDs as GOBL's regime packages normalise them (cases from GOBL's own regime tests).
import { describe, expect, it } from 'vitest';
import { regimeNormRules } from '../../../src-main/core/gobl/regimes/index.ts';
import { taxId } from './regimes-helpers.ts';

describe('standard tax ID cleaning per regime', () => {
  it.each([
    ['GB', '844 281.425', '844281425'],
    ['DE', 'de 111-111-125', '111111125'],
    ['IT', 'IT 12345670017', '12345670017'],
    ['PT', 'PT 545 259 045', '545259045'],
    ['NL', 'nl000099995b57', '000099995B57'],
    ['AT', 'ATU 1234 5675', 'U12345675'],
    ['SA', ' 3-0000-0000-000003 ', '300000000000003'],
  ])('%s %j → %j', (country, code, expected) => {
    expect(taxId(country, code).code).toBe(expected);
  });

  it('drops the Northern Ireland and XU prefixes under the GB regime', () => {
    expect(taxId('XI', 'XI 844 281 425', 'GB').code).toBe('844281425');
    expect(taxId('GB', 'XU844281425').code).toBe('844281425');
  });

  it('keeps letters that Go does not upper-case to one character', () => {
    // ß has no single upper-case letter in Go, so it is removed as a bad character, not turned into SS.
    expect(taxId('DE', '12ß3').code).toBe('123');
  });

  it('leaves an absent code absent', () => {
    expect(taxId('ES', '')).toEqual({ country: 'ES' });
  });

  it('normalises a tax ID by its own country, whatever the document regime', () => {
    expect(taxId('FR', '391838042', 'ES').code).toBe('44391838042');
    expect(taxId('ES', '3157928M', 'FR').code).toBe('03157928M');
  });

  it('leaves US tax IDs alone: the US regime registers no normaliser', () => {
    const rules = regimeNormRules('US').filter((r) => r.type === 'tax.Identity');
    const id = { country: 'US', code: 'us 12-3456789' };
    expect(rules.some((r) => !r.when || r.when(id, {} as never))).toBe(false);
  });
});

describe('ES', () => {
  it.each([
    ['93471790-C', '93471790C'],
    [' 4359 6386 R ', '43596386R'],
    ['Z-8327649-K', 'Z8327649K'],
    ['ES93471790C', '93471790C'],
    [' ES-93 471 790-C ', '93471790C'],
    ['3157928M', '03157928M'],
    ['15S', '00000015S'],
  ])('%j → %j (numeric codes padded to nine)', (code, expected) => {
    expect(taxId('ES', code).code).toBe(expected);
  });
});

describe('FR', () => {
  it.each([
    ['356000000', '39356000000'],
    ['732829320', '44732829320'],
    ['44 73282 9320 ', '44732829320'],
    ['391-838-042', '44391838042'],
    ['FR391838042', '44391838042'],
    ['FR44391838042', '44391838042'],
    ['391838043', '391838043'], // not a valid SIREN: no key derived
    [' INV-ALID ', 'INVALID'],
  ])('%j → %j', (code, expected) => {
    expect(taxId('FR', code).code).toBe(expected);
  });
});

describe('CH', () => {
  it.each([
    ['CHE-901.458.652', 'E901458652'],
    ['E-800.134.536', 'E800134536'],
    ['CHE-284.156.502-MWST', 'E284156502'],
    ['CHE-284.156.502-TVA', 'E284156502'],
    ['CHE-284.156.502 IVA', 'E284156502'],
  ])('%j → %j', (code, expected) => {
    expect(taxId('CH', code).code).toBe(expected);
  });
});

describe('EL (Greece)', () => {
  it.each([
    ['123 456 789', '123456789'],
    ['123/456/789', '123456789'],
    ['EL123456789', '123456789'],
    ['GR123456789', '123456789'],
  ])('%j → %j', (code, expected) => {
    expect(taxId('EL', code).code).toBe(expected);
  });

  it('turns an ISO GR tax country into EL', () => {
    expect(taxId('GR', '123456789', 'EL')).toEqual({ country: 'EL', code: '123456789' });
  });
});

describe('IN', () => {
  it.each([
    ['27aapfu0939f1zv', '27AAPFU0939F1ZV'],
    ['  27AAPFU0939F1ZV  ', '27AAPFU0939F1ZV'],
    ['27-AAPFU0939F1-ZV', '27AAPFU0939F1ZV'],
    ['IN27AAPFU0939F1ZV', '27AAPFU0939F1ZV'],
  ])('%j → %j', (code, expected) => {
    expect(taxId('IN', code).code).toBe(expected);
  });
});

describe('MX', () => {
  it.each([
    ['GHI70123123Z', 'GHI70123123Z'],
    ['MXGHI70123123Z', 'GHI70123123Z'],
    ['MXMXI70123123Z', 'MXI70123123Z'],
    ['MXI70123123Z', 'MXI70123123Z'], // an RFC that starts with MX keeps it
    [' GHI 701231 23Z ', 'GHI70123123Z'],
    ['GHI-701231-23Z', 'GHI70123123Z'],
    ['K&A010301I16', 'K&A010301I16'],
  ])('%j → %j', (code, expected) => {
    expect(taxId('MX', code).code).toBe(expected);
  });
});

describe('NO', () => {
  it.each([
    ['923456783MVA', '923456783MVA'],
    ['923456783', '923456783MVA'],
    ['NO 923 456 783 MVA', '923456783MVA'],
    ['no923456783mva', '923456783MVA'],
    ['923-456-783', '923456783MVA'],
    ['ABC123', 'ABC123MVA'],
    ['923456783MVAMVA', '923456783MVAMVA'],
  ])('%j → %j', (code, expected) => {
    expect(taxId('NO', code).code).toBe(expected);
  });

  it('does not give an empty code the suffix', () => {
    expect(taxId('NO', '').code).toBeUndefined();
  });
});
