import { readFileSync } from 'node:fs';
import { goblDataDir } from './data-dir.ts';

const cache = new Map<string, unknown>();

/** Reads and caches one JSON file of GOBL's data folder, e.g. `regimes/es.json`. */
export function readGoblData<T>(relative: string): T {
  let value = cache.get(relative);
  if (value === undefined) {
    value = JSON.parse(readFileSync(goblDataDir() + relative, 'utf8'));
    cache.set(relative, value);
  }
  return value as T;
}
