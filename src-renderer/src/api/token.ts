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
 * The token to start with. A `#token=…` fragment (as `npm run serve` links print
 * it) wins and is then removed from the address bar, so it does not linger in
 * history or get copied along with the URL; otherwise the one kept for this tab.
 */
export function initialToken(env: TokenEnv): string | undefined {
  const fragment = new URLSearchParams(env.location.hash.replace(/^#/, ''));
  const fromUrl = fragment.get('token')?.trim();
  if (fragment.has('token')) {
    fragment.delete('token');
    const rest = fragment.toString();
    env.history.replaceState(env.history.state, '', `${env.location.pathname}${env.location.search}${rest ? `#${rest}` : ''}`);
  }
  if (fromUrl) {
    saveToken(env, fromUrl);
    return fromUrl;
  }
  return env.storage.getItem(STORAGE_KEY) ?? undefined;
}

export function saveToken(env: TokenEnv, token: string): void {
  env.storage.setItem(STORAGE_KEY, token);
}

export function forgetToken(env: TokenEnv): void {
  env.storage.removeItem(STORAGE_KEY);
}
