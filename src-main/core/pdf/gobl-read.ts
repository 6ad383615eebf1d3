// Reading GOBL JSON that arrives untyped: every accessor tolerates a missing or
// mistyped member, since a PDF of an imperfect document is still worth having.

export type Json = Record<string, unknown>;

// Tags whose plain humanised form would read wrong.
const TAG_LABELS: Readonly<Record<string, string>> = { b2g: 'B2G', b2c: 'B2C', b2b: 'B2B' };

/** A non-blank string, else undefined. */
export function str(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

export function obj(value: unknown): Json | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : undefined;
}

/** The objects of an array member, skipping anything else. */
export function objects(value: unknown): Json[] {
  return Array.isArray(value) ? value.map(obj).filter((item): item is Json => item !== undefined) : [];
}

export function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.map(str).filter((item): item is string => item !== undefined) : [];
}

export function isSet<T>(value: T | undefined | null | false | ''): value is T {
  return value !== undefined && value !== null && value !== false && value !== '';
}

// GOBL presents a series as a prefix of the code, separated by a dash.
export function documentNumber(doc: Json): string {
  const series = str(doc.series);
  const code = str(doc.code);
  if (series && code) return `${series}-${code}`;
  return code ?? '';
}

/** "reverse-charge" → "Reverse charge" */
export function humanize(key: string): string {
  const known = TAG_LABELS[key];
  if (known) return known;
  const words = key.replace(/[-_]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** GOBL keys extend a base with "+": "credit-transfer+sepa" → "Credit transfer (SEPA)" */
export function humanizeKey(key: string): string {
  const [base, ...extensions] = key.split('+');
  const text = humanize(base);
  return extensions.length > 0 ? `${text} (${extensions.map((e) => e.toUpperCase()).join(', ')})` : text;
}
