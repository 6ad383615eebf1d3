// The few amount questions normalisers ask of the tree's amount strings ("-12.50", "21%").
// Amounts in the tree are GOBL's canonical strings, so a sign and digits are all there is.

function digitsOf(text: string): string {
  return text.replace(/^-/, '').replace(/%$/, '');
}

/** num.Amount/Percentage IsZero. */
export function isZeroNumber(text: unknown): boolean {
  return typeof text === 'string' && /^[0.]*$/.test(digitsOf(text)) && /\d/.test(text);
}

/** num.Amount IsNegative (a negative zero is not negative). */
export function isNegativeNumber(text: unknown): boolean {
  return typeof text === 'string' && text.startsWith('-') && !isZeroNumber(text);
}

/** num.Amount Negate, on the canonical string (zero stays unsigned). */
export function negateNumber(text: string): string {
  if (isZeroNumber(text)) return text.replace(/^-/, '');
  return text.startsWith('-') ? text.slice(1) : `-${text}`;
}
