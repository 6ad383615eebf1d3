import { userLocale } from './locale.ts';

const dayFormat = new Intl.DateTimeFormat(userLocale, { year: 'numeric', month: 'short', day: 'numeric', timeZone: 'UTC' });
const dateTimeFormat = new Intl.DateTimeFormat(userLocale, { dateStyle: 'medium', timeStyle: 'short' });
const timeFormat = new Intl.DateTimeFormat(userLocale, { hour: '2-digit', minute: '2-digit', second: '2-digit' });
const relativeFormat = new Intl.RelativeTimeFormat(userLocale, { numeric: 'auto' });

/**
 * A calendar date ("2024-02-01", as documents state it) in the user's locale. It
 * is read and printed in UTC so that no time zone can move it to another day.
 */
export function formatDay(isoDate: string | undefined): string {
  if (!isoDate) return '';
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(isoDate);
  if (!match) return isoDate;
  const at = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  return Number.isNaN(at) ? isoDate : dayFormat.format(at);
}

/** A moment (ISO 8601 timestamp) in the user's time zone. */
export function formatDateTime(iso: string | undefined): string {
  if (!iso) return '';
  const at = Date.parse(iso);
  return Number.isNaN(at) ? iso : dateTimeFormat.format(at);
}

export function formatTime(iso: string | undefined): string {
  if (!iso) return '';
  const at = Date.parse(iso);
  return Number.isNaN(at) ? iso : timeFormat.format(at);
}

const UNITS: Array<[Intl.RelativeTimeFormatUnit, number]> = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
  ['second', 1],
];

/** "3 minutes ago", for recent activity; the exact time goes in a title. */
export function formatRelative(iso: string | undefined, now = Date.now()): string {
  if (!iso) return '';
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return iso;
  const seconds = Math.round((at - now) / 1000);
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size || unit === 'second') return relativeFormat.format(Math.round(seconds / size), unit);
  }
  return iso;
}

/** How long between two moments, e.g. "1.2 s" or "3 min 4 s". */
export function formatDuration(fromIso: string, toIso: string | undefined): string {
  const ms = (toIso ? Date.parse(toIso) : Date.now()) - Date.parse(fromIso);
  if (!Number.isFinite(ms) || ms < 0) return '';
  if (ms < 1000) return `${ms} ms`;
  if (ms < 60_000) return `${(ms / 1000).toLocaleString(userLocale, { maximumFractionDigits: 1 })} s`;
  const minutes = Math.floor(ms / 60_000);
  return `${minutes} min ${Math.round((ms % 60_000) / 1000)} s`;
}
