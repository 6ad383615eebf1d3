// GOBL's Amount.RescaleDown on an amount as the tree holds it (a decimal string): only removes
// decimals, rounding half away from zero; fewer decimals are left as they are.

const DECIMAL = /^([+-]?)(\d+)(?:\.(\d+))?$/;

export function rescaleDownText(value: string, exp: number): string {
  const m = DECIMAL.exec(value);
  if (!m || (m[3] ?? '').length <= exp) return value;
  const [, sign, int, frac] = m;
  const kept = BigInt(int + frac.slice(0, exp));
  const roundUp = frac.charCodeAt(exp) >= 53; // next digit ≥ '5': away from zero
  const digits = (roundUp ? kept + 1n : kept).toString().padStart(exp + 1, '0');
  const text = exp === 0 ? digits : `${digits.slice(0, -exp)}.${digits.slice(-exp)}`;
  const zero = /^[0.]+$/.test(text);
  return (sign === '-' && !zero ? '-' : '') + text;
}

/** The same for a tree value that may still be a JSON number; other values pass through. */
export function rescaleDownValue(value: unknown, exp: number): unknown {
  if (typeof value === 'string') return rescaleDownText(value, exp);
  if (typeof value === 'number' && Number.isFinite(value)) {
    const text = rescaleDownText(String(value), exp);
    return text === String(value) ? value : text;
  }
  return value;
}
