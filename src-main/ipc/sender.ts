const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Whether an IPC message comes from a frame showing the app itself. `appOrigin`
 * is where the window's UI is loaded from: `app://silodesk` when built, or the
 * electron-vite dev server (always on loopback) in development. Anything else —
 * file://, a remote page, about:blank, a frame with no URL — is refused.
 */
export function isTrustedSender(frameUrl: string | undefined, appOrigin: string): boolean {
  const frame = parseUrl(frameUrl);
  const app = parseUrl(appOrigin);
  if (!frame || !app || !isAcceptableAppOrigin(app)) return false;
  if (frame.username !== '' || frame.password !== '') return false;
  // Compared by scheme and host rather than `URL.origin`, which is "null" for custom schemes.
  return frame.protocol === app.protocol && frame.host.toLowerCase() === app.host.toLowerCase();
}

function isAcceptableAppOrigin(app: URL): boolean {
  if (app.protocol === 'app:') return app.host !== '';
  if (app.protocol === 'http:' || app.protocol === 'https:') return LOOPBACK_HOSTS.has(app.hostname.toLowerCase());
  return false;
}

function parseUrl(value: string | undefined): URL | undefined {
  if (!value) return undefined;
  try {
    return new URL(value);
  } catch {
    return undefined;
  }
}
