// Scripts DejaVu Sans can draw without a shaping engine; pdfkit lays glyphs out
// left to right one by one, so Arabic or Devanagari would come out unreadable.
const DRAWABLE_SCRIPTS = new Set(['Latn', 'Grek', 'Cyrl']);

// GOBL names Greece's regime "EL" (its VAT prefix); ISO 3166 and CLDR say "GR".
const REGION_BY_REGIME: Readonly<Record<string, string>> = { EL: 'GR' };

/**
 * The locale numbers and dates of an invoice are formatted in: the one asked for
 * (canonicalised; throws RangeError when it is not a BCP 47 tag), else the main
 * language of the regime's country when the fonts can draw its script, else
 * English as written in that country (en-IN, en-AE), else plain English.
 */
export function invoiceLocaleOf(regime: unknown, requested?: string): string {
  if (requested !== undefined) return Intl.getCanonicalLocales(requested)[0];
  if (typeof regime !== 'string' || !/^[A-Z]{2}$/.test(regime)) return 'en';
  const region = REGION_BY_REGIME[regime] ?? regime;
  const likely = new Intl.Locale('und', { region }).maximize();
  const language = likely.script && DRAWABLE_SCRIPTS.has(likely.script) ? likely.language : 'en';
  return `${language}-${region}`;
}

/** Whether the fonts can draw text written in `locale`'s script (Greek yes, Arabic no). */
export function isDrawableLocale(locale: string): boolean {
  const script = new Intl.Locale(locale).maximize().script;
  return script !== undefined && DRAWABLE_SCRIPTS.has(script);
}

/** Whether `tag` is a well-formed BCP 47 language tag that Intl accepts. */
export function isLocaleTag(tag: string): boolean {
  try {
    return Intl.getCanonicalLocales(tag).length === 1;
  } catch {
    return false;
  }
}

/** ISO country code of a regime, for region names ("EL" is Greece's VAT prefix, not a region). */
export function regionOfCountry(code: string): string {
  return REGION_BY_REGIME[code] ?? code;
}
