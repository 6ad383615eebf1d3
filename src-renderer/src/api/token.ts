/** Where the browser UI keeps its API token: this tab only, gone when it closes. */
const STORAGE_KEY = 'silodesk.token';

/** The pieces of `window` the token handling touches; injected so tests need no browser. */
export interface TokenEnv {
  location: { pathname: string; search: string; hash: string };
  history: { state: unknown; replaceState(data: unknown, unused: string, url: string): void };
  storage: { getItem(key: string): string | null; setItem(key: string, value: string): void; removeItem(key: string): void };
}

export const browserTokenEnv = (): TokenEnv => ({ location: window.location, history: window.history, storage: window.sessionStorage });

/**
 * Takes `name` out of the address bar's fragment and answers its value, so a
 * secret never lingers in history or gets copied along with the URL.
 */
function takeFromFragment(env: TokenEnv, name: string): string | undefined {
  const hash = env.location.hash.replace(/^#/, '');
  // A UI route (`#/entries`) is not a key=value fragment: leave it alone.
  if (hash.startsWith('/')) return undefined;
  const fragment = new URLSearchParams(hash);
  if (!fragment.has(name)) return undefined;
  const value = fragment.get(name)?.trim();
  fragment.delete(name);
  const rest = fragment.toString();
  env.history.replaceState(env.history.state, '', `${env.location.pathname}${env.location.search}${rest ? `#${rest}` : ''}`);
  return value || undefined;
}

/**
 * The token to start with. A `#token=…` fragment wins and is then removed from
 * the address bar; otherwise the one kept for this tab.
 */
export function initialToken(env: TokenEnv): string | undefined {
  const fromUrl = takeFromFragment(env, 'token');
  if (fromUrl) {
    saveToken(env, fromUrl);
    return fromUrl;
  }
  return env.storage.getItem(STORAGE_KEY) ?? undefined;
}

/**
 * The one-time login code of a `#login=…` link (as `npm run serve` prints it),
 * removed from the address bar at once: it is traded for a token, never kept.
 */
export function takeLoginCode(env: TokenEnv): string | undefined {
  return takeFromFragment(env, 'login');
}

/** The token kept for this tab (the one the UI works with), if any. */
export function storedToken(env: TokenEnv): string | undefined {
  return env.storage.getItem(STORAGE_KEY) ?? undefined;
}

export function saveToken(env: TokenEnv, token: string): void {
  env.storage.setItem(STORAGE_KEY, token);
}

export function forgetToken(env: TokenEnv): void {
  env.storage.removeItem(STORAGE_KEY);
}
