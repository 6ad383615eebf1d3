// Hand-written scanners that stand in for regular expressions on hot paths must read exactly
// what those expressions read.
import { describe, expect, it } from 'vitest';
import { dateFields } from '../../../src-main/core/gobl/shape/days.ts';
import { canonicalAmount, canonicalPercentage, formatAmount, parseAmountText } from '../../../src-main/core/gobl/shape/input-numbers.ts';
import { compareDec, decSign, parseDec, ZERO } from '../../../src-main/core/gobl/validate/rules/decimal.ts';
import { isValidUuid, uuidVersion } from '../../../src-main/core/gobl/validate/rules/formats.ts';

// Every string of up to `max` characters from `alphabet`.
function* strings(alphabet: string[], max: number, prefix = ''): Generator<string> {
  yield prefix;
  if (prefix.length < max) for (const c of alphabet) yield* strings(alphabet, max, prefix + c);
}

const outcome = (f: () => string): string => {
  try {
    return f();
  } catch (error) {
    return `error: ${(error as Error).message}`;
  }
};

describe('dateFields', () => {
  const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
  const byRegex = (s: string) => {
    const m = DATE.exec(s);
    return m ? Number(m[1]) * 10000 + Number(m[2]) * 100 + Number(m[3]) : -1;
  };

  it('reads YYYY-MM-DD as the regular expression does', () => {
    const samples = ['2024-02-29', '0000-00-00', '9999-99-99', '2024-2-29', '2024-02-290', ' 2024-02-29', '2024-02-29\n', '2024/02/29',
      '２０２４-02-29', '2024-0a-29', '', '2024-02-2', '12345-01-01', '0099-12-31', '2024-02-29T00:00:00'];
    for (const s of samples) expect(dateFields(s), s).toBe(byRegex(s));
    for (const s of strings(['0', '9', '-', 'x'], 5)) {
      const padded = `20${s}`.padEnd(10, '1');
      expect(dateFields(padded), padded).toBe(byRegex(padded));
    }
  });
});

describe('canonical amounts', () => {
  // What the scanner stands in for: a text that matches reads back as itself.
  const PLAIN = /^-?(0|[1-9][0-9]*)(?:\.([0-9]+))?$/;
  const isPlain = (t: string) => {
    const m = PLAIN.exec(t);
    if (!m) return false;
    if ((m[1] === '0' ? 0 : m[1].length) + (m[2]?.length ?? 0) > 18) return false;
    return !t.startsWith('-') || /[1-9]/.test(t);
  };
  const expected = (t: string) => outcome(() => (isPlain(t) ? t : formatAmount(parseAmountText(t))));

  it('keeps exactly the texts GOBL writes, and formats every other one', () => {
    const long = ['1234567890123456789', '123456789012345678', '0.123456789012345678', '0.1234567890123456789', '12345678901234567.8', '-0.000', '-0.010'];
    for (const t of [...strings(['0', '1', '9', '-', '.', '+', 'e', ' '], 4), ...long]) {
      expect(outcome(() => canonicalAmount(t)), t).toBe(expected(t));
      expect(outcome(() => canonicalPercentage(`${t}%`)), `${t}%`).toBe(outcome(() => `${isPlain(t) ? t : formatAmount(parseAmountText(t))}%`));
    }
  });
});

describe('decSign', () => {
  it('is the sign of what parseDec reads, and undefined where it reads nothing', () => {
    const bySign = (v: unknown) => {
      const d = parseDec(v);
      return d === undefined ? undefined : compareDec(d, ZERO);
    };
    for (const t of strings(['0', '7', '-', '+', '.', '%', ' ', 'e'], 5)) expect(decSign(t), JSON.stringify(t)).toBe(bySign(t));
    for (const v of [0, -0, 1.5, -2, 1e21, -1e-7, NaN, Infinity, null, undefined, {}, '１', ' 12.50 ', '\t-0.00%\n']) {
      expect(decSign(v), String(v)).toBe(bySign(v));
    }
  });
});

describe('UUIDs', () => {
  const FORMS = [
    /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i,
    /^\{[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\}$/i,
    /^urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i,
    /^[0-9a-f]{32}$/i,
  ];
  const version = (v: string) => Number.parseInt(v.replace(/^urn:uuid:|[{}-]/gi, '')[12], 16);

  it('accepts the forms google/uuid parses, and reads their version', () => {
    const base = '0190a0a0-1b2c-7d3e-8f4a-5b6c7d8e9f00';
    const samples = [base, base.toUpperCase(), `{${base}}`, `urn:uuid:${base}`, base.replaceAll('-', ''), `${base} `, base.slice(1),
      base.replace('-', 'x'), base.replace('7d3e', '7d3g'), 'g'.repeat(36), '-'.repeat(36), base.replaceAll('-', 'a').slice(0, 36), ''];
    for (let i = 0; i < 36; i++) samples.push(base.slice(0, i) + '-' + base.slice(i + 1), base.slice(0, i) + 'G' + base.slice(i + 1));
    for (const s of samples) {
      const valid = FORMS.some((re) => re.test(s));
      expect(isValidUuid(s), s).toBe(valid);
      if (valid) expect(uuidVersion(s), s).toBe(version(s));
    }
  });
});

describe('rune length', () => {
  it('counts code points as spreading a string does', async () => {
    const { genericCheck } = await import('../../../src-main/core/gobl/validate/rules/vocabulary.ts');
    const at = { ctx: {} as never, type: undefined, zero: false };
    for (const s of strings(['a', 'é', '😀', '\ud800', '\udc00'], 4)) {
      const n = [...s].length;
      for (const [min, max] of [[n, n], [n + 1, 0], [0, Math.max(n - 1, 1)]]) {
        const check = genericCheck(`rune length between ${min} and ${max}`)!;
        const expected = s === '' || ((min === 0 || n >= min) && (max === 0 || n <= max) && (min !== 0 || max !== 0 || n === 0));
        expect(check(s, at), `${JSON.stringify(s)} ${min}..${max}`).toBe(expected);
      }
    }
  });
});
