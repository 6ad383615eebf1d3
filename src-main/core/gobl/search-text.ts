import { UUID_PATTERN } from './uuid-pattern.ts';

// The full-text index needs the words people search for, not the whole document.
export const SEARCH_TEXT_MAX_BYTES = 32 * 1024;
// One long note must not crowd out the names and codes that follow it.
const VALUE_MAX_CHARS = 4 * 1024;
// Digests and hashes: nobody types them into a search box.
const HEX_DIGEST = /^[0-9a-fA-F]{32,}$/;
// Embedded binary (base64 images, data: URIs) has no words in it.
const LONG_TOKEN = /^\S{200,}$/;

/**
 * The document's human-searchable text: its string values (names, codes,
 * series, item names, notes, addresses, tax ids, emails, amounts...) in document
 * order, whitespace collapsed, each distinct value once, joined with spaces and
 * capped at SEARCH_TEXT_MAX_BYTES of UTF-8. Skips `$schema`, UUIDs, digests and
 * embedded binary. The same document always gives the same text.
 */
export function searchTextOf(doc: unknown): string {
  const parts: string[] = [];
  const seen = new Set<string>();
  let bytes = 0;

  const add = (raw: string): void => {
    if (UUID_PATTERN.test(raw) || HEX_DIGEST.test(raw) || LONG_TOKEN.test(raw)) return;
    let value = raw.replace(/\s+/g, ' ').trim();
    if (value === '' || seen.has(value)) return;
    seen.add(value);
    if (value.length > VALUE_MAX_CHARS) value = truncate(value, VALUE_MAX_CHARS);
    const size = Buffer.byteLength(value, 'utf8') + (parts.length > 0 ? 1 : 0);
    // A value that does not fit is skipped, but shorter ones after it may still.
    if (bytes + size > SEARCH_TEXT_MAX_BYTES) return;
    bytes += size;
    parts.push(value);
  };

  const visit = (value: unknown): void => {
    if (typeof value === 'string') add(value);
    else if (Array.isArray(value)) for (const item of value) visit(item);
    else if (typeof value === 'object' && value !== null) {
      for (const [key, member] of Object.entries(value)) {
        if (key !== '$schema') visit(member);
      }
    }
  };

  visit(doc);
  return parts.join(' ');
}

// Cuts at a space when there is one near the limit, and never inside a surrogate pair.
function truncate(value: string, max: number): string {
  let cut = value.lastIndexOf(' ', max);
  if (cut < max / 2) cut = max;
  const code = value.charCodeAt(cut - 1);
  if (code >= 0xd800 && code <= 0xdbff) cut -= 1;
  return value.slice(0, cut);
}
