/**
 * Exact decimal arithmetic on the strings documents state ("1970.20", "-0.5"): sums
 * of a selection are added as scaled integers, never as floats.
 */
const DECIMAL = /^\s*([+-]?)(\d+)(?:\.(\d+))?\s*$/;

export const isDecimal = (value: string | undefined): value is string => !!value && DECIMAL.test(value);

/** "-12.50" → "12.50", "3" → "-3", "0.00" stays "0.00": a credit note's amounts read negative. */
export function negate(value: string): string {
  const m = DECIMAL.exec(value);
  if (!m) return value;
  const [, minus, whole, fraction] = m;
  const digits = fraction === undefined ? whole : `${whole}.${fraction}`;
  if (!/[1-9]/.test(digits)) return digits;
  return minus === '-' ? digits : `-${digits}`;
}

/** The sum of decimal strings, at the largest precision among them; anything not a decimal counts as nothing. */
export function sumDecimals(values: Iterable<string | undefined>): string {
  const list = [...values].filter(isDecimal);
  const scale = Math.min(20, Math.max(0, ...list.map((v) => DECIMAL.exec(v)![3]?.length ?? 0)));
  let units = 0n;
  for (const value of list) {
    const [, minus, whole, fraction = ''] = DECIMAL.exec(value)!;
    const scaled = BigInt(whole + fraction.padEnd(scale, '0'));
    units += minus === '-' ? -scaled : scaled;
  }
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(scale + 1, '0');
  const text = scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
  return negative ? `-${text}` : text;
}
