// Code cleaning helpers shared by the regime normalisers. They reproduce GOBL's own
// cleaning functions character for character, because the cleaned code is what
// ends up in the document (and in its digest).

const ASCII = /^[\x00-\x7f]*$/;

/**
 * Upper-cases rune by rune, like Go's strings.ToUpper: a character whose upper
 * case is more than one character (`ß` → `SS` in JavaScript) keeps its own form.
 */
export function goUpper(text: string): string {
  // ASCII letters have one-letter upper cases: the common case needs no rune walk.
  if (ASCII.test(text)) return text.toUpperCase();
  let out = '';
  for (const ch of text) {
    const up = ch.toUpperCase();
    out += [...up].length === 1 ? up : ch;
  }
  return out;
}

// Anything outside the characters a tax code may hold (GOBL's `IdentityCodeBadCharsRegexp`).
const taxCodeBadChars = /[^A-Z0-9Ñ&]+/gu;

/**
 * The cleaning nearly every regime applies to its tax IDs (GOBL's `tax.NormalizeIdentity`):
 * upper-case, drop everything that is not a letter, digit, `Ñ` or `&`, then strip the
 * identity's country prefix and, one after the other, each alternative prefix.
 */
export function cleanTaxCode(code: string, country: string, altPrefixes: readonly string[] = []): string {
  let out = goUpper(code).replace(taxCodeBadChars, '');
  for (const prefix of [country, ...altPrefixes]) {
    if (prefix && out.startsWith(prefix)) out = out.slice(prefix.length);
  }
  return out;
}

/** Only the ASCII digits of a code (GOBL's `cbc.NormalizeNumericalCode`). */
export function digitsOnly(code: string): string {
  return code.replace(/[^0-9]/g, '');
}

/** Only the ASCII letters and digits of a code, letters upper-cased (`cbc.NormalizeAlphanumericalCode`). */
export function alphanumericOnly(code: string): string {
  return code.replace(/[^A-Za-z0-9]/g, '').toUpperCase();
}
