// EU membership as GOBL's l10n unions define it, checked on a date (GOBL asks about "today").
// Greece is a member under both its ISO code GR and its tax code EL.

interface Member { codes: string[]; since: string; until?: string }

const EU_MEMBERS: Member[] = [
  { codes: ['AT'], since: '1995-01-01' },
  { codes: ['BE'], since: '1958-01-01' },
  { codes: ['BG'], since: '2007-01-01' },
  { codes: ['CY'], since: '2004-01-01' },
  { codes: ['CZ'], since: '2004-01-01' },
  { codes: ['DE'], since: '1958-01-01' },
  { codes: ['DK'], since: '1973-01-01' },
  { codes: ['EE'], since: '2004-01-01' },
  { codes: ['ES'], since: '1986-01-01' },
  { codes: ['FI'], since: '1995-01-01' },
  { codes: ['FR'], since: '1958-01-01' },
  { codes: ['GB'], since: '1973-01-01', until: '2020-01-31' },
  { codes: ['GR', 'EL'], since: '1981-01-01' },
  { codes: ['HR'], since: '2013-01-01' },
  { codes: ['HU'], since: '2004-01-01' },
  { codes: ['IE'], since: '1973-01-01' },
  { codes: ['IT'], since: '1958-01-01' },
  { codes: ['LT'], since: '2004-01-01' },
  { codes: ['LU'], since: '1958-01-01' },
  { codes: ['LV'], since: '2004-01-01' },
  { codes: ['MT'], since: '2004-01-01' },
  { codes: ['NL'], since: '1958-01-01' },
  { codes: ['PL'], since: '2004-01-01' },
  { codes: ['PT'], since: '1986-01-01' },
  { codes: ['RO'], since: '2007-01-01' },
  { codes: ['SE'], since: '1995-01-01' },
  { codes: ['SI'], since: '2004-01-01' },
  { codes: ['SK'], since: '2004-01-01' },
];

/** Whether `country` belongs to the EU on `on` (inclusive of both membership bounds). */
export function isEuMember(country: string, on: Date): boolean {
  if (country === '') return false;
  const day = on.toISOString().slice(0, 10);
  return EU_MEMBERS.some((m) => m.codes.includes(country) && day >= m.since && (m.until === undefined || day <= m.until));
}
