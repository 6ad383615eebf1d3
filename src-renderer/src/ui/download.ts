/**
 * Hands bytes to the user as a download. The Blob is re-typed as octet-stream so
 * the browser saves it and never renders (or runs) it.
 */
export function saveBlob(blob: Blob, fileName: string): void {
  const safe = new Blob([blob], { type: 'application/octet-stream' });
  const url = URL.createObjectURL(safe);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName.replace(/[\\/:*?"<>|\u0000-\u001f]/g, '_') || 'download';
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  window.setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
