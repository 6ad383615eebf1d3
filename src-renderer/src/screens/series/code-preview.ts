/** The code a series gives an index: prefix, the index zero-padded to at least `padding` digits, suffix. */
export function seriesCode(n: { prefix: string; padding: number; suffix: string }, index: number): string {
  const digits = String(index);
  return `${n.prefix}${digits.padStart(Math.max(0, Math.min(20, n.padding)), '0')}${n.suffix}`;
}
