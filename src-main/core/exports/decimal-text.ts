// Amounts stay the decimal strings GOBL wrote: negated and re-punctuated as text, never
// through a float, so an export says to the cent what the document says.

const DECIMAL = /^[+-]?\d+(\.\d+)?$/;

export const isDecimal = (value: string): boolean => DECIMAL.test(value);

/** "12.30" → "-12.30", "-5" → "5"; zero stays unsigned; anything not a decimal is left as it is. */
export function negateDecimal(value: string): string {
  if (!isDecimal(value)) return value;
  const unsigned = value.replace(/^[+-]/, '');
  if (!/[1-9]/.test(unsigned)) return unsigned;
  return value.startsWith('-') ? unsigned : `-${unsigned}`;
}

/** "21.0%" → "21.0"; undefined for anything else. */
export function percentNumber(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const match = /^\s*([+-]?\d+(?:\.\d+)?)\s*%\s*$/.exec(value);
  return match ? match[1] : undefined;
}

/** A decimal with `mark` as its decimal separator ("1630.00" → "1630,00"); no thousands separators. */
export function withDecimalMark(value: string, mark: '.' | ','): string {
  return mark === ',' && isDecimal(value) ? value.replace('.', ',') : value;
}
