import { useSyncExternalStore } from 'react';

/**
 * What changed, so that screens showing it reload: an import refreshes the entry
 * list and folder counts, a saved workflow the workflow list, and so on.
 */
export type Topic = 'entries' | 'folders' | 'workflows' | 'jobs' | 'series' | 'companies';

const versions: Record<Topic, number> = { entries: 0, folders: 0, workflows: 0, jobs: 0, series: 0, companies: 0 };
const listeners = new Set<() => void>();

export function notifyChanged(...topics: Topic[]): void {
  for (const topic of topics) versions[topic] += 1;
  for (const listener of listeners) listener();
}

/** A number that grows each time `topic` changes: put it in an effect's dependencies. */
export function useChangeVersion(topic: Topic): number {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => versions[topic],
  );
}

/*
 * One entry changed (a job ended on it, a file was attached): the views showing it
 * refresh just that entry, so a long list keeps its loaded pages and scroll.
 */
const entryVersions = new Map<string, number>();
const entryListeners = new Set<(id: string) => void>();

export function notifyEntryChanged(id: string): void {
  entryVersions.set(id, (entryVersions.get(id) ?? 0) + 1);
  for (const listener of entryListeners) listener(id);
  for (const listener of listeners) listener();
}

/** Calls `listener` with the id of each entry that changes on its own. */
export function onEntryChanged(listener: (id: string) => void): () => void {
  entryListeners.add(listener);
  return () => entryListeners.delete(listener);
}

/** Changes when this entry (or entries at large) changed: for an effect's dependencies. */
export function useEntryVersion(id: string): string {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => `${versions.entries}:${entryVersions.get(id) ?? 0}`,
  );
}
