// cal: civil dates, date-times and periods.
import type { PredicateTable } from './table.ts';
import { obj, str } from '../values.ts';
import { dateFields, daysInMonth } from '../../../shape/days.ts';

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})$/;

function realDate(y: number, m: number, d: number): boolean {
  const t = new Date(Date.UTC(y, m - 1, d));
  return t.getUTCFullYear() === y && t.getUTCMonth() === m - 1 && t.getUTCDate() === d;
}

// civil.Date.IsValid: a real calendar date (zero dates pass: they are "not set"). What realDate
// answers, without a Date: Date.UTC reads years 0–99 as 1900–1999, so those are never real.
function validDate(v: unknown): boolean {
  const s = str(v);
  if (s === '' || s === '0000-00-00') return true;
  const fields = dateFields(s);
  if (fields < 0) return false;
  const y = Math.floor(fields / 10000);
  const m = Math.floor(fields / 100) % 100;
  const d = fields % 100;
  return y >= 100 && m >= 1 && m <= 12 && d >= 1 && d <= daysInMonth(y, m);
}

function validDateTime(v: unknown): boolean {
  const s = str(v);
  if (s === '' || s === '0000-00-00T00:00:00') return true;
  const m = DATE_TIME.exec(s);
  return m !== null && realDate(Number(m[1]), Number(m[2]), Number(m[3])) && Number(m[4]) < 24 && Number(m[5]) < 60 && Number(m[6]) < 60;
}

function endNotBeforeStart(v: unknown): boolean {
  const p = obj(v);
  const start = str(p?.start);
  const end = str(p?.end);
  if (!p || start === '' || start === '0000-00-00' || end === '' || end === '0000-00-00') return true;
  return end >= start;
}

export const cal: PredicateTable = {
  'valid date': validDate,
  'valid date time': validDateTime,
  'valid timestamp': () => true, // a parsed timestamp cannot be invalid; GOBL always passes
  'end not before start': endNotBeforeStart,
};
