import { extname, resolve, sep } from 'node:path';

/** The custom scheme the built UI is served from; `app://silodesk/` is its origin. */
export const APP_SCHEME = 'app';
export const APP_HOST = 'silodesk';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;

/** Sent with every app:// response; the renderer needs nothing beyond its own files and IPC. */
export const APP_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; font-src 'self'; " +
  "connect-src 'self'; frame-src 'self' blob:; object-src 'none'; base-uri 'none'; form-action 'none'; " +
  "frame-ancestors 'none'";

/**
 * Maps an app:// request URL to a file under `root`, or undefined when it is not
 * ours or could leave `root`. Each path segment is decoded on its own so that an
 * encoded `..`, slash or backslash is refused rather than reinterpreted; the
 * final resolved path is checked to lie inside `root` as a second guard.
 */
export function resolveAppPath(root: string, requestUrl: string): string | undefined {
  let url: URL;
  try {
    url = new URL(requestUrl);
  } catch {
    return undefined;
  }
  if (url.protocol !== `${APP_SCHEME}:` || url.host.toLowerCase() !== APP_HOST) return undefined;

  const segments: string[] = [];
  for (const raw of url.pathname.split('/')) {
    if (raw === '') continue;
    let segment: string;
    try {
      segment = decodeURIComponent(raw);
    } catch {
      return undefined;
    }
    if (!isSafeSegment(segment)) return undefined;
    segments.push(segment);
  }
  if (segments.length === 0 || url.pathname.endsWith('/')) segments.push('index.html');

  const base = resolve(root);
  const file = resolve(base, ...segments);
  return file.startsWith(base + sep) ? file : undefined;
}

function isSafeSegment(segment: string): boolean {
  if (segment === '.' || segment === '..') return false;
  // Separators, drive letters / alternate streams and control characters have no place in a built asset name.
  return !/[/\\:\u0000-\u001f\u007f]/.test(segment);
}

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.wasm': 'application/wasm',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
};

export function contentTypeFor(file: string): string {
  return CONTENT_TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream';
}
