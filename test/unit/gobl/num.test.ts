import { describe, expect, it } from 'vitest';
import { Amount, Percentage } from '../../../src-main/core/gobl/num/index.ts';

const A = (s: string | number) => Amount.parse(s);
const P = (s: string | number) => Percentage.parse(s);

describe('Amount parsing', () => {
  it('keeps the exponent as written', () => {
    expect(A('1800.00')).toMatchObject({ m: 180000, exp: 2 });
    expect(A('20').toString()).toBe('20');
    expect(A('20.0').toString()).toBe('20.0');
    expect(A('20.000').toString()).toBe('20.000');
    expect(A('-0.022')).toMatchObject({ m: -22, exp: 3 });
    expect(A('000123.456').toString()).toBe('123.456');
    expect(A('-0.00').toString()).toBe('0.00');
  });

  it('reads a trailing "." as an integer, like GOBL', () => {
    expect(A('12.')).toMatchObject({ m: 12, exp: 0 });
  });

  it('truncates decimals beyond 18 significant digits', () => {
    expect(A('123456789.1234567890').toString()).toBe('123456789.123456789');
    expect(A('1.12345678901234567890').toString()).toBe('1.12345678901234567');
    expect(A('1.99999999999999999999').toString()).toBe('1.99999999999999999');
    expect(A('123456789012345678.99').toString()).toBe('123456789012345678');
    expect(A('0.123456789012345678').toString()).toBe('0.123456789012345678');
    expect(A('-123456789.123456789').toString()).toBe('-123456789.123456789');
  });

  it('refuses an integer part beyond 18 digits', () => {
    expect(() => A('1234567890123456789')).toThrow(/too many digits/);
    expect(() => A('-1234567890123456789')).toThrow(/too many digits/);
    expect(A('000000123456789012345678').toString()).toBe('123456789012345678');
  });

  it.each(['1e5', 'NaN', '0x10', ' 1', '1 ', '', '-', '.5', '+1', '1.2.3', '23,433.00', '1234.bar', '--1', '1.-5'])(
    'refuses %j',
    (s) => {
      expect(() => A(s)).toThrow(Error);
    },
  );

  it('reads a JSON number in its shortest decimal form', () => {
    expect(A(20.0).toString()).toBe('20');
    expect(A(12.5).toString()).toBe('12.5');
    expect(A(-0.1).toString()).toBe('-0.1');
    expect(A(1e-7).toString()).toBe('0.0000001');
    expect(A(1.5e-7).toString()).toBe('0.00000015');
    expect(A(1e17).toString()).toBe('100000000000000000');
    expect(() => A(1e21)).toThrow(/too many digits/);
    expect(() => A(Number.NaN)).toThrow(Error);
    expect(() => A(Infinity)).toThrow(Error);
  });
});

describe('Amount arithmetic', () => {
  it('rounds half away from zero', () => {
    expect(A('0.005').rescale(2).toString()).toBe('0.01');
    expect(A('-0.005').rescale(2).toString()).toBe('-0.01');
    expect(A('0.0049').rescale(2).toString()).toBe('0.00');
    expect(A('-0.0049').rescale(2).toString()).toBe('0.00');
    expect(A('1234.5678').rescale(2).toString()).toBe('1234.57');
  });

  it('adds and subtracts at the left exponent, rounding the right operand first', () => {
    expect(A('2.00').add(A('1.000')).toString()).toBe('3.00');
    expect(A('0.299').add(A('10.00')).toString()).toBe('10.299');
    expect(A('10.00').add(A('0.005')).toString()).toBe('10.01');
    expect(A('10.00').add(A('0.004')).add(A('0.004')).toString()).toBe('10.00');
    expect(A('2.00').subtract(A('1.000')).toString()).toBe('1.00');
    expect(A('0.299').subtract(A('10.00')).toString()).toBe('-9.701');
    expect(A('18900.00').subtract(A('18900.02')).toString()).toBe('-0.02');
  });

  it('multiplies at the left exponent', () => {
    expect(A('100.10').multiply(A('2.1')).toString()).toBe('210.21');
    expect(A('200').multiply(A('0.21')).toString()).toBe('42');
    expect(A('100.2002').multiply(A('1.50')).toString()).toBe('150.3003');
    expect(A('6690.99').multiply(A('0.23')).toString()).toBe('1538.93');
    expect(A('1.01').multiply(A('1.01')).toString()).toBe('1.02');
    expect(A('1.33').multiply(A('1.33')).toString()).toBe('1.77');
  });

  it('divides at the left exponent, and by zero gives zero', () => {
    expect(A('100.10').divide(A('2.2')).toString()).toBe('45.50');
    expect(A('200.00').divide(A('0.21')).toString()).toBe('952.38');
    expect(A('10.00').divide(A('-4')).toString()).toBe('-2.50');
    expect(A('-10.00').divide(A('-4')).toString()).toBe('2.50');
    expect(A('-1000').divide(A('16')).toString()).toBe('-63');
    expect(A('1.00000000000000000').divide(A('0.50')).toString()).toBe('2.00000000000000000');
    expect(A('1.00').divide(A('0')).toString()).toBe('0.00');
  });

  it('rescales up, down and to match', () => {
    expect(A('21.23').rescaleUp(4).toString()).toBe('21.2300');
    expect(A('21.23').rescaleUp(1).toString()).toBe('21.23');
    expect(A('21.83').rescaleDown(0).toString()).toBe('22');
    expect(A('21.83').rescaleDown(4).toString()).toBe('21.83');
    expect(A('1234.56').matchPrecision(A('0.0000')).toString()).toBe('1234.5600');
    expect(A('1.5').upscale(2).toString()).toBe('1.500');
  });

  it('fits results into an int64 as GOBL does', () => {
    let acc = A('0');
    for (let i = 0; i < 10; i++) acc = acc.add(A('999999999999999999'));
    expect(acc.toString()).toBe('9223372036854775807');
    expect(A('3.0888382687927107').add(A('999999999999999999')).toString()).toBe('1000000000000000002');
    const product = A('3.0888382687927107').multiply(A('439'));
    expect(product.exp).toBe(15);
    expect(product.rescaleDown(2).toString()).toBe('1356.00');
    expect(A('10000000000').multiply(A('10000000000')).toString()).toBe('9223372036854775807');
    expect(A('-10000000000').multiply(A('10000000000')).toString()).toBe('-9223372036854775808');
    const wide = A('999999999.999999999').rescale(10);
    expect(wide.exp).toBe(9);
    expect(wide.equals(A('999999999.999999999'))).toBe(true);
  });

  it('compares values whatever their exponents', () => {
    expect(A('10.00').compare(A('20.00'))).toBe(-1);
    expect(A('10.00').compare(A('20.0000'))).toBe(-1);
    expect(A('20.0000').compare(A('10.00'))).toBe(1);
    expect(A('1.0').equals(A('1.00'))).toBe(true);
    expect(A('999999999999999999').compare(A('3.0888382687927107'))).toBe(1);
  });

  it('negates, takes absolute values and tests the sign', () => {
    expect(A('0.00').negate().toString()).toBe('0.00');
    expect(A('-2.50').abs().toString()).toBe('2.50');
    expect(A('-0.02').isNegative()).toBe(true);
    expect(A('0.000').isZero()).toBe(true);
    expect(new Amount(-5025, 0).toString()).toBe('-5025');
    expect(new Amount(12345670, 3).toString()).toBe('12345.670');
  });

  // The number fast path must agree with the bigint path (a mantissa given as a bigint takes it).
  it('agrees with its exact bigint path on random operands', () => {
    let seed = 42;
    const rand = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
    const mantissa = () => {
      const digits = 1 + Math.floor(rand() * 15);
      let m = Math.floor(rand() * 10 ** digits);
      if (rand() < 0.1) m = Number.MAX_SAFE_INTEGER - Math.floor(rand() * 1000);
      return rand() < 0.5 ? -m : m;
    };
    const same = (x: Amount, y: Amount) => expect(`${x.toString()}@${x.exp}`).toBe(`${y.toString()}@${y.exp}`);
    for (let i = 0; i < 3000; i++) {
      const am = mantissa(); const ae = Math.floor(rand() * 8);
      const bm = mantissa(); const be = Math.floor(rand() * 8);
      const a = new Amount(am, ae); const b = new Amount(bm, be);
      const ab = new Amount(BigInt(am), ae); const bb = new Amount(BigInt(bm), be);
      same(a.add(b), ab.add(bb));
      same(a.subtract(b), ab.subtract(bb));
      same(a.multiply(b), ab.multiply(bb));
      same(a.divide(b), ab.divide(bb));
      const e = Math.floor(rand() * 10);
      same(a.rescale(e), ab.rescale(e));
      expect(a.compare(b)).toBe(ab.compare(bb));
    }
  });
});

describe('Percentage', () => {
  it('reads "%" text as a ratio with two more decimals, other text as the ratio', () => {
    expect(P('21.0%').ratio.toString()).toBe('0.210');
    expect(P('21%').ratio.toString()).toBe('0.21');
    expect(P('5.2%').ratio.toString()).toBe('0.052');
    expect(P('0.160').ratio.toString()).toBe('0.160');
    expect(P('').ratio.toString()).toBe('0');
    expect(P(21).ratio.toString()).toBe('21');
    expect(() => P('bad')).toThrow(Error);
    expect(() => P('21 %')).toThrow(Error);
  });

  it('prints as GOBL does', () => {
    expect(P('21.0%').toString()).toBe('21.0%');
    expect(P('0.21').toString()).toBe('21%');
    expect(P('0.5').toString()).toBe('50%');
    expect(P('16.00%').toString()).toBe('16.00%');
    expect(new Percentage(new Amount(200, 1)).toString()).toBe('2000%');
    expect(P('-16.0%').toString()).toBe('-16.0%');
    expect(P('0%').toString()).toBe('0%');
    expect(P('').toString()).toBe('0%');
  });

  it('applies to an amount at the amount exponent, and removes itself', () => {
    expect(P('17.0%').of(A('100.00')).toString()).toBe('17.00');
    expect(P('21.0%').of(A('10.0000')).toString()).toBe('2.1000');
    expect(P('16.0%').factor().toString()).toBe('1.160');
    expect(P('16.0%').remove(A('116.00')).toString()).toBe('100.00');
    expect(P('10%').remove(A('200.00')).toString()).toBe('181.82');
  });

  it('compares by value', () => {
    expect(P('21%').equals(P('21.0%'))).toBe(true);
    expect(P('21%').compare(P('10%'))).toBe(1);
    expect(P('0%').isZero()).toBe(true);
  });
});
