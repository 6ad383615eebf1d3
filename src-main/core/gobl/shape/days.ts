// Calendar arithmetic for date checks that run on every date of every document: the same
// answers as asking a Date object, without making one.

/** Days in `month` (1–12) of `year`, in the proleptic Gregorian calendar JavaScript's Date uses. */
export function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}
