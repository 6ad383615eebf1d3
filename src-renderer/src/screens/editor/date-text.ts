// Dates as invoices print them, read into ISO dates (2025-03-14). Day-first for numeric dates
// (as Europe writes them) unless the first number cannot be a day's month partner.

const MONTHS: Record<string, number> = {
  jan: 1, january: 1, enero: 1, janvier: 1, januar: 1, gennaio: 1,
  feb: 2, february: 2, febrero: 2, février: 2, februar: 2, febbraio: 2,
  mar: 3, march: 3, marzo: 3, mars: 3, märz: 3,
  apr: 4, april: 4, abril: 4, avril: 4, aprile: 4,
  may: 5, mayo: 5, mai: 5, maggio: 5,
  jun: 6, june: 6, junio: 6, juin: 6, juni: 6, giugno: 6,
  jul: 7, july: 7, julio: 7, juillet: 7, juli: 7, luglio: 7,
  aug: 8, august: 8, agosto: 8, août: 8,
  sep: 9, sept: 9, september: 9, septiembre: 9, septembre: 9, settembre: 9,
  oct: 10, october: 10, octubre: 10, octobre: 10, oktober: 10, ottobre: 10,
  nov: 11, november: 11, noviembre: 11, novembre: 11,
  dec: 12, december: 12, diciembre: 12, décembre: 12, dezember: 12, dicembre: 12,
};

function iso(year: number, month: number, day: number): string | undefined {
  if (year < 1990 || year > 2100 || month < 1 || month > 12 || day < 1) return undefined;
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCMonth() !== month - 1) return undefined;
  return date.toISOString().slice(0, 10);
}

const fullYear = (y: string): number => (y.length === 2 ? 2000 + Number(y) : Number(y));

/** The dates printed in a line, in order. */
export function datesIn(line: string): string[] {
  const found: Array<{ at: number; date: string }> = [];
  for (const m of line.matchAll(/\b(\d{4})-(\d{1,2})-(\d{1,2})\b/g)) {
    const date = iso(Number(m[1]), Number(m[2]), Number(m[3]));
    if (date) found.push({ at: m.index, date });
  }
  for (const m of line.matchAll(/\b(\d{1,2})([./-])(\d{1,2})\2(\d{4}|\d{2})\b/g)) {
    const [a, b] = [Number(m[1]), Number(m[3])];
    // Day first; a "day" over 12 in the second place means the month came first.
    const date = b > 12 && a <= 12 ? iso(fullYear(m[4]), a, b) : iso(fullYear(m[4]), b, a);
    if (date) found.push({ at: m.index, date });
  }
  const lower = line.toLowerCase();
  for (const m of lower.matchAll(/\b(\d{1,2})(?:st|nd|rd|th)?\.?\s+(?:de\s+)?([a-zéèû]+)\.?,?\s+(?:de\s+)?(\d{4})\b/g)) {
    const month = MONTHS[m[2]];
    const date = month ? iso(Number(m[3]), month, Number(m[1])) : undefined;
    if (date) found.push({ at: m.index, date });
  }
  for (const m of lower.matchAll(/\b([a-zéèû]+)\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})\b/g)) {
    const month = MONTHS[m[1]];
    const date = month ? iso(Number(m[3]), month, Number(m[2])) : undefined;
    if (date) found.push({ at: m.index, date });
  }
  return found.sort((x, y) => x.at - y.at).map((f) => f.date);
}
