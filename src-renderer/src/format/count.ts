import { userLocale } from './locale.ts';

const integer = new Intl.NumberFormat(userLocale);
const bytes = new Intl.NumberFormat(userLocale, { maximumFractionDigits: 1 });

export const formatCount = (n: number): string => integer.format(n);

/** "entry" / "entries" by count, for English labels. */
export const plural = (n: number, one: string, many: string): string => `${formatCount(n)} ${n === 1 ? one : many}`;

export function formatBytes(size: number): string {
  if (size < 1024) return `${integer.format(size)} B`;
  const units = ['KB', 'MB', 'GB'];
  let value = size / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${bytes.format(value)} ${units[unit]}`;
}
