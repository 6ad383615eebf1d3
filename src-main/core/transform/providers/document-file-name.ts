import { documentNumber } from '../../pdf/gobl-read.ts';
import { unsafeFileNameReason } from '../../silo/file-name.ts';
import type { Envelope } from '../../silo/document.ts';

/**
 * "SAMPLE-001.pdf" for an envelope whose document is numbered SAMPLE-001. Characters
 * no file system takes become "_"; the envelope uuid stands in for a missing or
 * still unusable number.
 */
export function documentFileName(envelope: Envelope, extension: string): string {
  const number = documentNumber(envelope.doc ?? {});
  // Leading dots would hide the file on Unix-like systems.
  const cleaned = number.replace(/[\/\\:*?"<>|\p{Cc}\p{Cf}]/gu, '_').trim().replace(/^\.+/, '');
  const name = `${cleaned}.${extension}`;
  if (cleaned !== '' && unsafeFileNameReason(name) === undefined) return name;
  return `${envelope.head.uuid}.${extension}`;
}
