/** Bytes of a picked or dropped file. */
export async function fileBytes(file: File): Promise<Uint8Array> {
  return new Uint8Array(await file.arrayBuffer());
}

/** Base64 of the bytes, in chunks (one giant String.fromCharCode call overflows the stack). */
export function toBase64(bytes: Uint8Array): string {
  let binary = '';
  const chunk = 0x8000;
  for (let i = 0; i < bytes.length; i += chunk) binary += String.fromCharCode(...bytes.subarray(i, i + chunk));
  return btoa(binary);
}

export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>);
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * An attachment id from a file name: the id allows 1-128 of A-Z a-z 0-9 . _ -,
 * starting with a letter or digit. "Scan 2024 (1).pdf" → "Scan-2024-1-.pdf".
 */
export function attachmentIdFor(name: string, taken: ReadonlySet<string> = new Set()): string {
  let base = name
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^[^A-Za-z0-9]+/, '')
    .slice(0, 100);
  if (!base) base = 'file';
  let id = base;
  for (let n = 2; taken.has(id); n++) id = `${n}-${base}`;
  return id;
}

/** Attachments are capped at 50 MiB by the service. */
export const MAX_ATTACHMENT_BYTES = 50 * 1024 * 1024;

/**
 * The name a file is shown and downloaded by: its own, as the user knows it
 * (`Scan 2025-03-14 10:30.pdf`), with characters no one can see (control and
 * formatting characters a file system may still allow) turned into spaces.
 */
export function displayNameOf(name: string): string {
  const shown = Array.from(name.replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]+/gu, ' ').trim()).slice(0, 255).join('');
  return shown || 'file';
}
