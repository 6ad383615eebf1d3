// Names inside an export's ZIP. Every segment is made safe on any OS and in any unzip tool
// (no separators, no "..", no device names, bounded length), and unique, so that no file of
// one entry can overwrite another's when the archive is unpacked.
import { unsafeFileNameReason } from '../silo/file-name.ts';

const FORBIDDEN = /[\/\\:*?"<>|\p{Cc}\p{Cf}]/gu;

/** One path segment: forbidden characters become "_", leading dots and trailing dots/spaces go. */
export function safeSegment(name: string, fallback: string): string {
  let cleaned = name.normalize('NFC').replace(FORBIDDEN, '_').trim().replace(/^\.+/, '').replace(/[. ]+$/, '');
  // At most 120 characters, so folder + file stay well under every path limit.
  if (cleaned.length > 120) cleaned = cleaned.slice(0, 120).replace(/[. ]+$/, '');
  return cleaned !== '' && unsafeFileNameReason(cleaned) === undefined ? cleaned : fallback;
}

/** Hands out names once: a second "x" becomes "x (2)", keeping its extension. */
export class UniqueNames {
  readonly #used = new Set<string>();

  take(name: string): string {
    let candidate = name;
    for (let n = 2; this.#used.has(candidate.toLowerCase()); n++) {
      const dot = name.lastIndexOf('.');
      candidate = dot > 0 ? `${name.slice(0, dot)} (${n})${name.slice(dot)}` : `${name} (${n})`;
    }
    this.#used.add(candidate.toLowerCase());
    return candidate;
  }
}

/** "2026-03-02 SAMPLE-001": the entry's folder in the ZIP, by date and number (the id when it has none). */
export function entryFolderName(issueDate: string, number: string, entryId: string): string {
  const label = safeSegment(number, '') || entryId;
  return safeSegment(`${issueDate || 'undated'} ${label}`, entryId);
}
