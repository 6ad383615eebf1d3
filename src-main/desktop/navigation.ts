/**
 * May a frame of the window navigate to `url`? The window itself never navigates
 * (`will-navigate` is refused outright). A frame inside it may show only what the
 * app itself made: a page of its own origin, or a blob: URL it created (a PDF
 * preview), or about:blank. Anything else (a remote page a document links to, a
 * file: or custom-scheme URL) is refused, so no foreign page runs inside the
 * app's window, next to its IPC bridge.
 */
export function frameMayNavigate(url: string, isMainFrame: boolean, appOrigin: string): boolean {
  if (isMainFrame) return false;
  if (url === 'about:blank' || url === 'about:srcdoc') return true;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.protocol === 'blob:') {
    // blob:app://silodesk/<uuid>: the origin of the page that made it
    try {
      return originOf(new URL(parsed.pathname)) === appOrigin.toLowerCase();
    } catch {
      return false;
    }
  }
  return originOf(parsed) === appOrigin.toLowerCase();
}

/** scheme://host[:port]; URL#origin is "null" for a custom scheme such as app:, which Electron registers as standard. */
const originOf = (url: URL) => `${url.protocol}//${url.host}`.toLowerCase();
