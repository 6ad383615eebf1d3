import type { BinaryDownload } from './client.ts';

/**
 * An attachment download as a Blob, whichever transport fetched it: HTTP answers a
 * Blob, IPC the bytes with their media type.
 */
export function downloadToBlob(download: BinaryDownload, fallbackMime = 'application/octet-stream'): Blob {
  if (download instanceof Blob) return download;
  return new Blob([download.bytes as Uint8Array<ArrayBuffer>], { type: download.mime || fallbackMime });
}
