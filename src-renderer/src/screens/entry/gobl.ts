/**
 * Defensive readers for GOBL documents: an entry may hold any document (or an
 * invalid one), so every field is checked for its type before it is shown.
 */
export type Json = Record<string, unknown>;

export const obj = (value: unknown): Json | undefined =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : undefined;

export const arr = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

export const objs = (value: unknown): Json[] => arr(value).map(obj).filter((v): v is Json => v !== undefined);

export const str = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : typeof value === 'number' ? String(value) : undefined;

/** The document inside an envelope (or the value itself when it is a bare document). */
export function documentOf(data: unknown): Json | undefined {
  const envelope = obj(data);
  if (!envelope) return undefined;
  return obj(envelope.doc) ?? (typeof envelope.$schema === 'string' && !envelope.$schema.endsWith('/envelope') ? envelope : undefined);
}

export function taxIdText(party: Json | undefined): string | undefined {
  const taxId = obj(party?.tax_id);
  if (!taxId) return undefined;
  const code = str(taxId.code);
  const country = str(taxId.country);
  if (!code && !country) return undefined;
  return [country, code].filter(Boolean).join(' ');
}

export function addressLines(address: Json): string[] {
  const first = [str(address.num), str(address.street), str(address.street_extra)].filter(Boolean).join(' ');
  const poBox = str(address.po_box) ? `PO Box ${str(address.po_box)}` : undefined;
  const city = [str(address.code), str(address.locality)].filter(Boolean).join(' ');
  const region = [str(address.region), str(address.state), str(address.country)].filter(Boolean).join(', ');
  return [first, poBox, city, region].filter((l): l is string => !!l);
}

export function personName(person: Json): string | undefined {
  const name = obj(person.name);
  if (!name) return undefined;
  return [str(name.prefix), str(name.given), str(name.middle), str(name.surname), str(name.surname2), str(name.suffix)].filter(Boolean).join(' ') || undefined;
}

/** "SAMPLE-001" from a document reference (preceding, payment line, status line). */
export function refNumber(ref: Json | undefined): string | undefined {
  if (!ref) return undefined;
  const series = str(ref.series);
  const code = str(ref.code);
  return series && code ? `${series}-${code}` : code;
}

/** A tax combo of a line ("VAT 21 %" or "VAT reverse-charge"). */
export function comboParts(combo: Json): { category?: string; rate?: string; percent?: string } {
  return { category: str(combo.cat), rate: str(combo.rate) ?? str(combo.key), percent: str(combo.percent) };
}

/** Keys like "credit-transfer+sepa" read as words. */
export const humanKey = (key: string | undefined): string | undefined =>
  key
    ?.split('+')
    .map((part) => part.replace(/-/g, ' '))
    .join(' · ');
