// The generic test vocabulary of GOBL's rules data, read from its rendered descriptions, and
// the named predicates of the regimes (tax identity checksums), on values GOBL's own tests use.
import { describe, expect, it } from 'vitest';
import type { At, Origin } from '../../../src-main/core/gobl/validate/rules/model.ts';
import { compileGuard, compileTests, splitTests, unknownTexts } from '../../../src-main/core/gobl/validate/rules/parse.ts';
import { namedPredicate } from '../../../src-main/core/gobl/validate/rules/predicates/index.ts';
import type { FieldType } from '../../../src-main/core/gobl/validate/rules/typing.ts';

const origin: Origin = { pkg: 'test', object: 'bill.Invoice', file: 'test.json' };
const ctx = { root: {}, envelope: undefined, doc: {}, regime: 'ES', regimeDef: undefined, addons: ['es-sii-v1'], digestTrusted: false };
const at = (type?: FieldType, zero = false): At => ({ ctx, type, zero });
const STRING: FieldType = { kind: 'scalar', scalar: 'string', type: 'cbc.Key' };
const AMOUNT: FieldType = { kind: 'scalar', scalar: 'amount', type: 'num.Amount' };
const DATE: FieldType = { kind: 'scalar', scalar: 'string', type: 'cal.Date' };
const TAX_SET: FieldType = { kind: 'array', of: { kind: 'object', type: 'tax.Combo' }, type: 'tax.Set' };

/** True when every test of the description passes. */
function passes(text: string, value: unknown, where: At = at(), id = 'TEST-01'): boolean {
  return compileTests(text, origin, id).every((t) => t(value, where));
}

describe('splitting descriptions', () => {
  it('splits at top-level commas only', () => {
    expect(splitTests('present, url')).toEqual(['present', 'url']);
    expect(splitTests('ext require [a, b], one of [x, y]')).toEqual(['ext require [a, b]', 'one of [x, y]']);
    expect(splitTests("ext 'k' matches pattern '^a, b$'")).toEqual(["ext 'k' matches pattern '^a, b$'"]);
  });

  it('reads ", or" as alternatives and other commas as tests that must all pass', () => {
    expect(passes('matches ^[A-Z]{2}$, or one of [kg, h]', 'h')).toBe(true);
    expect(passes('matches ^[A-Z]{2}$, or one of [kg, h]', 'ZZ')).toBe(true);
    expect(passes('matches ^[A-Z]{2}$, or one of [kg, h]', 'zz')).toBe(false);
    expect(passes('at least 1, at most 999', 1000)).toBe(false);
    expect(passes('at least 1, at most 999', 5)).toBe(true);
  });

  it('remembers a description it cannot read instead of failing at run time', () => {
    expect(passes('frobnicates the widget', 'x')).toBe(true);
    expect(unknownTexts().map((u) => u.text)).toContain('frobnicates the widget');
  });
});

describe('presence', () => {
  it('follows Go: structs are never empty, strings/lists/maps are', () => {
    expect(passes('present', '')).toBe(false);
    expect(passes('present', [])).toBe(false);
    expect(passes('present', {}, at({ kind: 'map', of: STRING, type: 'tax.Extensions' }))).toBe(false);
    expect(passes('present', {}, at({ kind: 'object', type: 'org.Party' }))).toBe(true);
    expect(passes('present', '0.00', at(AMOUNT))).toBe(true);
    expect(passes('empty', undefined)).toBe(true);
    expect(passes('nil', null)).toBe(true);
    expect(passes('nil', {})).toBe(false);
  });

  it('`not zero` is a date test on dates and an amount test on amounts', () => {
    expect(passes('not zero', undefined, at(DATE, true))).toBe(false); // non-pointer date left out
    expect(passes('not zero', undefined, at(DATE, false))).toBe(true); // nil pointer
    expect(passes('not zero', '2024-01-01', at(DATE))).toBe(true);
    expect(passes('not zero', '0.00', at(AMOUNT))).toBe(false);
    expect(passes('not zero', '0.01', at(AMOUNT))).toBe(true);
  });
});

describe('values', () => {
  it('one of / not one of compare an absent string as ""', () => {
    expect(passes('one of [standard, proforma]', undefined, at(STRING, true))).toBe(false);
    expect(passes('one of [standard, proforma]', 'proforma', at(STRING))).toBe(true);
    expect(passes('not one of [FR]', 'FR', at(STRING))).toBe(false);
  });

  it('one of / all of on a tax set look at its categories, a nil set being empty', () => {
    expect(passes('one of [VAT, IGIC]', [{ cat: 'IGIC' }], at(TAX_SET))).toBe(true);
    expect(passes('one of [VAT, IGIC]', undefined, at(TAX_SET))).toBe(false);
    expect(passes('all of [VAT]', [{ cat: 'IRPF' }], at(TAX_SET))).toBe(false);
  });

  it('length counts UTF-8 bytes (runes for rune length); 0 as a bound means none', () => {
    expect(passes('length between 0 and 3', 'ñañ')).toBe(false); // 6 bytes
    expect(passes('rune length between 0 and 3', 'ñañ')).toBe(true);
    expect(passes('length between 1 and 0', 'a very long value')).toBe(true);
    expect(passes('length between 0 and 1', ['a', 'b'])).toBe(false);
  });

  it('min compares amounts and percentages exactly; GOBL-built positive bounds are exclusive', () => {
    expect(passes('min 0', '0.00', at(AMOUNT))).toBe(true);
    expect(passes('min 0', '-0.01', at(AMOUNT))).toBe(false);
    expect(passes('min 0', '0.00', at(AMOUNT), 'GOBL-BILL-PAYMENTLINE-02')).toBe(false);
    expect(passes('min 0', '21%', at(AMOUNT))).toBe(true);
  });

  it('matches uses Go patterns and lets empty values through', () => {
    expect(passes('matches ^[A-Z0-9Ñ\\&]+$', 'AÑ&1')).toBe(true);
    expect(passes('matches ^[A-Z0-9Ñ\\&]+$', 'a')).toBe(false);
    expect(passes('matches ^\\d{5}$', '')).toBe(true);
  });

  it('be or starts with one of: a key or a key with sub-keys', () => {
    expect(passes('be or starts with one of [card, online]', 'card+debit')).toBe(true);
    expect(passes('be or starts with one of [card, online]', 'cash')).toBe(false);
  });

  it('expressions read Go field names as JSON names', () => {
    expect(passes("string(Code) != '' || string(Key) != ''", { key: 'x' })).toBe(true);
    expect(passes("string(Code) != '' || string(Key) != ''", {})).toBe(false);
    expect(passes('Base != nil || Percent != nil', { percent: '10%' })).toBe(true);
    expect(passes('!Retained || !Informative', { retained: true, informative: true })).toBe(false);
    expect(passes("string(Country) in ['','BR']", { country: 'BR' })).toBe(true);
    expect(passes("string(Country) in ['','BR']", { country: 'AR' })).toBe(false);
  });
});

describe('extensions', () => {
  it('require, exclude, allow one of, codes in and not in, pattern', () => {
    const ext = { 'es-sii-doc-type': 'F1', 'es-sii-regime': '01' };
    expect(passes('ext require [es-sii-doc-type, es-sii-regime]', ext)).toBe(true);
    expect(passes('ext require [es-sii-exempt]', ext)).toBe(false);
    expect(passes('ext require [es-sii-exempt]', undefined)).toBe(false);
    expect(passes('ext exclude [es-sii-regime]', ext)).toBe(false);
    expect(passes('ext allow one of [es-sii-doc-type, es-sii-regime]', ext)).toBe(false);
    expect(passes("ext 'es-sii-doc-type' in [F1, F2]", ext)).toBe(true);
    expect(passes("ext 'es-sii-doc-type' not in [F1, F2]", ext)).toBe(false);
    expect(passes("ext 'es-sii-exempt' in [E1]", ext)).toBe(true); // absent key passes
    expect(passes("ext 'x' matches pattern '^\\d{7}$'", { x: '12345' })).toBe(false);
  });
});

describe('context and document tests', () => {
  it('context guards read the document regime and addons', () => {
    expect(compileGuard('context: regime in [ES,PT]', origin)(undefined, at())).toBe(true);
    expect(compileGuard('context: regime in [FR]', origin)(undefined, at())).toBe(false);
    expect(compileGuard('context: addon in [es-sii-v1]', origin)(undefined, at())).toBe(true);
  });

  it('identity and invoice tests', () => {
    expect(passes('code in [ES]', { country: 'ES', code: 'B1' })).toBe(true); // a tax identity's country
    expect(passes('code in [AC, AL]', 'AL')).toBe(true); // a code
    expect(passes('has a type in [SIRET]', [{ type: 'SIREN' }, { type: 'SIRET' }])).toBe(true);
    expect(passes('key in [it-fiscal-code]', { key: 'it-fiscal-code' })).toBe(true);
    expect(passes('invoice type in [credit-note]', { type: 'standard' })).toBe(false);
    expect(passes('can convert to [EUR]', { currency: 'USD', exchange_rates: [{ from: 'USD', to: 'EUR', amount: '0.9' }] })).toBe(true);
    expect(passes('can convert to [EUR]', { currency: 'USD' })).toBe(false);
  });
});

describe('tax identity predicates of the regimes', () => {
  // Valid codes from GOBL's own regime tests; the invalid ones change the check digit.
  const cases: Array<[string, string, string[], string[]]> = [
    ['ar', 'valid', ['30500010912', '20172543597'], ['30500010913']],
    ['at', 'valid', ['U00000033', 'U38516405'], ['U38516406']],
    ['be', 'valid', ['0413172884', '897222383'], ['0413172885']],
    ['br', 'valid', ['05104582000170', '35549549506'], ['05104582000171', '35549549507']],
    ['ch', 'valid', ['E100416306'], ['E100416307']],
    ['co', 'valid', ['412615332', '9014586527'], ['412615333']],
    ['de', 'valid', ['111111125', '813495425'], ['111111126']],
    ['dk', 'valid', ['13585628', '25063864'], ['13585629']],
    ['es', 'valid', ['93471790C', 'Z8327649K', 'B98602642'], ['93471790D', 'B98602643', '00000000T']],
    ['fi', 'valid', ['23456780', '01120389'], ['23456781']],
    ['fr', 'valid', ['44732829320', '44391838042'], ['44391838043']],
    ['gb', 'checksum', ['844281425', 'GD103', 'HA503'], ['844281426', 'HA499']],
    ['gr', 'valid', ['094014201'], ['094014202']],
    ['ie', 'valid', ['3628739L', '6433435OA', '8Z49289F'], ['3628739M']],
    ['in', 'valid', ['27AAPFU0939F1ZV'], ['27AAPFU0939F1ZW']],
    ['it', 'valid', ['12345678903'], ['12345678904']],
    ['mx', 'valid RFC', ['GHI70123123Z'], ['GHI7012312Z']],
    ['no', 'valid MVA-suffixed mod-11 org number', ['923456783MVA'], ['923456783', '923456784MVA']],
    ['pl', 'valid', ['9551893317', '5841896486'], ['9551893318']],
    ['pt', 'valid', ['999999990', '287024008'], ['999999991']],
    ['se', 'valid', ['202100548901'], ['202100548902']],
  ];
  it.each(cases)('%s %s', (pkg, name, good, bad) => {
    const check = namedPredicate({ pkg, object: 'tax.Identity', file: `${pkg}.json` }, name)!;
    expect(good.filter((c) => !check(c, at()))).toEqual([]);
    expect(bad.filter((c) => check(c, at()))).toEqual([]);
  });
});
