const WINDOWS_RESERVED = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])(\..*)?$/i;
// Path separators, the characters Windows forbids in names, and control characters.
const FORBIDDEN = /[\/\\:*?"<>|\p{Cc}\p{Cf}]/u;

/**
 * Why an attachment name is unsafe, or undefined when it is fine. Names reach
 * download headers and exported folders on any OS, so we refuse what any of them
 * would misread: paths, device names, trailing dots/spaces, over-long names.
 */
export function unsafeFileNameReason(name: string): string | undefined {
  if (name.length === 0) return 'must not be empty';
  if (Buffer.byteLength(name, 'utf8') > 255) return 'must be at most 255 bytes';
  if (name === '.' || name === '..') return 'must not be . or ..';
  if (FORBIDDEN.test(name)) return 'must not contain / \\ : * ? " < > | or control characters';
  if (/[. ]$/.test(name)) return 'must not end with a dot or a space';
  if (name.trim() !== name) return 'must not start with a space';
  if (WINDOWS_RESERVED.test(name)) return 'must not be a reserved device name (CON, NUL, COM1…)';
  return undefined;
}

// Control and format characters (bidi overrides, zero-width joiners): they hide or reorder what a name shows.
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;

/**
 * Why an attachment's display name is unusable, or undefined when it is fine. A
 * display name is what the user's file was called (`Scan 2025-03-14 10:30.pdf`):
 * any printable text, since it never becomes a path by itself. Ids and exported
 * file names are path-safe (see unsafeFileNameReason); downloads carry the name in
 * a Content-Disposition that escapes it (contentDisposition).
 */
export function unsafeDisplayNameReason(name: string): string | undefined {
  if (name.trim().length === 0) return 'must not be empty';
  if (Buffer.byteLength(name, 'utf8') > 1024) return 'must be at most 1024 bytes';
  if (INVISIBLE.test(name)) return 'must not contain control or invisible formatting characters';
  return undefined;
}

const MIME_BY_EXTENSION: Record<string, string> = {
  pdf: 'application/pdf',
  json: 'application/json',
  xml: 'application/xml',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  svg: 'image/svg+xml',
  txt: 'text/plain',
  csv: 'text/csv',
  html: 'text/html',
  htm: 'text/html',
  zip: 'application/zip',
};

export function mimeFromName(name: string): string {
  const ext = name.includes('.') ? name.slice(name.lastIndexOf('.') + 1).toLowerCase() : '';
  return MIME_BY_EXTENSION[ext] ?? 'application/octet-stream';
}

/** Types a browser may show inline without running anything from the file. */
export function isInlineSafe(mime: string): boolean {
  return /^(application\/pdf|image\/(png|jpeg|gif|webp)|text\/plain|text\/csv|application\/json|application\/xml)$/i.test(mime);
}

/**
 * RFC 6266 Content-Disposition with an ASCII fallback and the UTF-8 name. A display
 * name may hold any printable text, so the fallback also drops what a file system
 * would misread (`/ \ : * ? < > |`); the UTF-8 form is percent-encoded (RFC 5987).
 */
export function contentDisposition(name: string, inline: boolean): string {
  const fallback = name.replace(/[^\x20-\x7e]|["\\%;/:*?<>|]/g, '_');
  return `${inline ? 'inline' : 'attachment'}; filename="${fallback}"; filename*=UTF-8''${rfc5987(name)}`;
}

/** Percent-encodes all but RFC 5987's attr-chars: encodeURIComponent leaves ' ( ) and * as they are. */
const rfc5987 = (name: string): string =>
  encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
