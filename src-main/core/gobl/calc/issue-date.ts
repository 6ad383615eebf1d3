// Issue date and time defaults: a zero issue time ("00:00:00" or "") becomes now, with today's
// date; a missing issue date becomes today. Both in the regime's time zone (UTC without one).
import type { Node } from '../engine/types.ts';
import type { RegimeDef } from '../defs/types.ts';

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    try {
      f = new Intl.DateTimeFormat('en-US', {
        timeZone, hourCycle: 'h23',
        year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit',
      });
    } catch {
      f = formatterFor('UTC'); // an unknown zone falls back to UTC, as in GOBL
    }
    formatters.set(timeZone, f);
  }
  return f;
}

/** Civil date ("2026-07-02") and time ("13:45:30") of an instant in a time zone. */
export function civilNow(now: Date, timeZone: string): { date: string; time: string } {
  const parts: Record<string, string> = {};
  for (const p of formatterFor(timeZone).formatToParts(now)) parts[p.type] = p.value;
  const year = parts.year.padStart(4, '0');
  return { date: `${year}-${parts.month}-${parts.day}`, time: `${parts.hour}:${parts.minute}:${parts.second}` };
}

function isZeroTime(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  return value === '' || /^00:00:00(\.0+)?$/.test(value);
}

/** Applies the defaults to `doc` and returns the tax date: the value date, else the issue date. */
export function applyIssueDefaults(doc: Node, regime: RegimeDef | undefined, now: Date): string {
  const tz = regime?.time_zone || 'UTC';
  if (isZeroTime(doc.issue_time)) {
    const { date, time } = civilNow(now, tz);
    doc.issue_date = date;
    doc.issue_time = time;
  } else if (typeof doc.issue_date !== 'string' || doc.issue_date === '') {
    doc.issue_date = civilNow(now, tz).date;
  }
  const value = doc.value_date;
  return typeof value === 'string' && value !== '' ? value : doc.issue_date;
}
