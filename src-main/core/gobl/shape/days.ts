// Calendar arithmetic for date checks that run on every date of every document: the same
// answers as asking a Date object, without making one.

/** Days in `month` (1–12) of `year`, in the proleptic Gregorian calendar JavaScript's Date uses. */
export function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

const digit = (text: string, i: number): number => {
  const c = text.charCodeAt(i) - 48;
  return c >= 0 && c <= 9 ? c : -1;
};

/**
 * The year, month and day of `YYYY-MM-DD` (ASCII digits, nothing around), as y·10⁴ + m·10² + d,
 * or -1 for any other text: what `/^(\d{4})-(\d{2})-(\d{2})$/` reads, without a match to
 * allocate on every date of every document.
 */
export function dateFields(text: string): number {
  if (text.length !== 10 || text.charCodeAt(4) !== 45 || text.charCodeAt(7) !== 45) return -1;
  let out = 0;
  for (let i = 0; i < 10; i++) {
    if (i === 4 || i === 7) continue;
    const d = digit(text, i);
    if (d < 0) return -1;
    out = out * 10 + d;
  }
  return out;
}
