import { readdirSync } from 'node:fs';
import { goblDataDir } from './data-dir.ts';
import { readGoblData } from './read-json.ts';
import type { AddonDef } from './types.ts';

let byKey: Map<string, AddonDef> | undefined;

function index(): Map<string, AddonDef> {
  if (byKey) return byKey;
  byKey = new Map();
  for (const file of readdirSync(`${goblDataDir()}addons`).sort()) {
    if (!file.endsWith('.json')) continue;
    const def = readGoblData<AddonDef>(`addons/${file}`);
    byKey.set(def.key, def);
  }
  return byKey;
}

/** The addon definition for a key such as `es-verifactu-v1`, or undefined when GOBL has none. */
export function addonDef(key: string): AddonDef | undefined {
  return index().get(key);
}

export function addonKeys(): string[] {
  return [...index().keys()].sort();
}

/**
 * `$addons` as GOBL expands it: each addon's requirements before it, each key once, unknown
 * keys dropped (`de-xrechnung-v3` → `eu-en16931-v2017, de-xrechnung-v3`).
 */
export function expandAddons(keys: readonly string[]): string[] {
  const out: string[] = [];
  const visit = (key: string): void => {
    const def = addonDef(key);
    if (!def || out.includes(key)) return;
    for (const required of def.requires ?? []) visit(required);
    if (!out.includes(key)) out.push(key);
  };
  for (const key of keys) visit(key);
  return out;
}
