/** How an attachment can be shown. Anything not listed is offered for download only. */
export type ViewKind = 'pdf' | 'image' | 'json' | 'xml' | 'svg' | 'html' | 'text' | 'other';

/** Raster formats a browser decodes without running anything. */
const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif', 'image/bmp']);

const EXTENSIONS: Record<string, ViewKind> = {
  pdf: 'pdf',
  png: 'image',
  jpg: 'image',
  jpeg: 'image',
  gif: 'image',
  webp: 'image',
  avif: 'image',
  bmp: 'image',
  json: 'json',
  xml: 'xml',
  svg: 'svg',
  html: 'html',
  htm: 'html',
  xhtml: 'html',
  txt: 'text',
  csv: 'text',
  md: 'text',
  log: 'text',
};

export function viewKind(mime: string, name: string): ViewKind {
  const type = mime.split(';')[0].trim().toLowerCase();
  if (type === 'application/pdf') return 'pdf';
  if (type === 'image/svg+xml') return 'svg';
  if (IMAGE_TYPES.has(type)) return 'image';
  if (type === 'application/json' || type.endsWith('+json')) return 'json';
  if (type === 'text/html' || type === 'application/xhtml+xml') return 'html';
  if (type === 'application/xml' || type === 'text/xml' || type.endsWith('+xml')) return 'xml';
  if (type.startsWith('text/')) return 'text';
  const ext = name.toLowerCase().split('.').pop() ?? '';
  return EXTENSIONS[ext] ?? 'other';
}

/** Media type to store for a file the user picks, when the browser gives none. */
export function mimeForFile(file: File): string {
  if (file.type) return file.type;
  switch (viewKind('', file.name)) {
    case 'pdf':
      return 'application/pdf';
    case 'json':
      return 'application/json';
    case 'xml':
      return 'application/xml';
    case 'svg':
      return 'image/svg+xml';
    case 'html':
      return 'text/html';
    case 'text':
      return 'text/plain';
    default:
      return 'application/octet-stream';
  }
}

/** Text views are for reading, not for gigabytes: past this, download instead. */
export const MAX_TEXT_VIEW_BYTES = 8 * 1024 * 1024;
