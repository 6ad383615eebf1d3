import { useSyncExternalStore } from 'react';

export type EntryTab = 'document' | 'json' | 'files' | 'jobs' | 'meta' | 'history';
export const ENTRY_TABS: readonly EntryTab[] = ['document', 'json', 'files', 'jobs', 'meta', 'history'];

/**
 * Where the window is. Routes live in the URL fragment (`#/entries/<id>/files/pdf`)
 * so they work the same from `app://` in the desktop app and from `serve` in a
 * browser, survive a reload, and make Back work.
 */
export type Route =
  | { screen: 'entries'; entryId?: string; tab?: EntryTab; fileId?: string }
  | { screen: 'workflows'; workflowId?: string }
  | { screen: 'jobs'; jobId?: string }
  | { screen: 'series'; seriesId?: string }
  | { screen: 'settings' }
  | { screen: 'sync' }
  | { screen: 'trash' }
  | { screen: 'editor'; entryId?: string };

export type Screen = Route['screen'];

export function parseRoute(hash: string): Route {
  const parts = hash
    .replace(/^#\/?/, '')
    .split('/')
    .filter(Boolean)
    .map((p) => {
      try {
        return decodeURIComponent(p);
      } catch {
        return p;
      }
    });
  const [screen, id, sub, subId] = parts;
  switch (screen) {
    case 'workflows':
      return { screen, workflowId: id };
    case 'jobs':
      return { screen, jobId: id };
    case 'series':
      return { screen, seriesId: id };
    case 'settings':
    case 'sync':
    case 'trash':
      return { screen };
    case 'editor':
      return { screen, entryId: id };
    default: {
      const tab = ENTRY_TABS.includes(sub as EntryTab) ? (sub as EntryTab) : undefined;
      return { screen: 'entries', entryId: id, tab, fileId: tab === 'files' ? subId : undefined };
    }
  }
}

export function routeHref(route: Route): string {
  const seg = (...parts: Array<string | undefined>) =>
    `#/${parts
      .filter((p): p is string => !!p)
      .map(encodeURIComponent)
      .join('/')}`;
  switch (route.screen) {
    case 'entries':
      return seg('entries', route.entryId, route.entryId ? route.tab : undefined, route.tab === 'files' ? route.fileId : undefined);
    case 'workflows':
      return seg('workflows', route.workflowId);
    case 'jobs':
      return seg('jobs', route.jobId);
    case 'series':
      return seg('series', route.seriesId);
    case 'settings':
      return seg('settings');
    case 'sync':
      return seg('sync');
    case 'trash':
      return seg('trash');
    case 'editor':
      return seg('editor', route.entryId);
  }
}

export const entryHref = (entryId: string, tab?: EntryTab, fileId?: string) => routeHref({ screen: 'entries', entryId, tab, fileId });

export function navigate(route: Route, options: { replace?: boolean } = {}): void {
  const href = routeHref(route);
  if (window.location.hash === href) return;
  if (options.replace) {
    window.history.replaceState(window.history.state, '', href);
    window.dispatchEvent(new HashChangeEvent('hashchange'));
  } else {
    window.location.hash = href;
  }
}

function subscribe(listener: () => void): () => void {
  window.addEventListener('hashchange', listener);
  return () => window.removeEventListener('hashchange', listener);
}

/** The hash itself is the snapshot (a string compares by value), parsed by the caller. */
export function useRoute(): Route {
  const hash = useSyncExternalStore(subscribe, () => window.location.hash);
  return parseRoute(hash);
}
