// Hand-written scanners that stand in for regular expressions on hot paths must read exactly
// what those expressions read.
import { describe, expect, it } from 'vitest';
import { dateFields } from '../../../src-main/core/gobl/shape/days.ts';
import { canonicalAmount, canonicalPercentage, formatAmount, parseAmountText } from '../../../src-main/core/gobl/shape/input-numbers.ts';

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
