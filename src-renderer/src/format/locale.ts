/**
 * The user's locale for every date and number the UI prints: the first language the
 * browser (or the desktop's OS, through Electron) prefers, else what Intl resolves.
 * Money is then written the user's way in the document's own currency.
 */
function preferredLocale(): string {
  const nav = typeof navigator !== 'undefined' ? navigator : undefined;
  const candidates = [...(nav?.languages ?? []), nav?.language, new Intl.NumberFormat().resolvedOptions().locale];
  for (const candidate of candidates) {
    if (!candidate) continue;
    try {
      return Intl.getCanonicalLocales(candidate)[0];
    } catch {
      // not a BCP 47 tag: try the next
    }
  }
  return 'en';
}

export const userLocale: string = preferredLocale();
