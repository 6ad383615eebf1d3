import { readdirSync } from 'node:fs';
import { goblDataDir } from './data-dir.ts';
import { readGoblData } from './read-json.ts';
import type { CategoryDef, RegimeDef } from './types.ts';

let byCode: Map<string, RegimeDef> | undefined;

// Every regime-def file, indexed by its country and its alternative codes (EL is also GR).
// A file in an older format (no `regime-def` schema) is left out: its newer twin covers it.
function index(): Map<string, RegimeDef> {
  if (byCode) return byCode;
  byCode = new Map();
  for (const file of readdirSync(`${goblDataDir()}regimes`).sort()) {
    if (!file.endsWith('.json')) continue;
    const def = readGoblData<RegimeDef>(`regimes/${file}`);
    if (!def.$schema?.endsWith('/tax/regime-def')) continue;
    byCode.set(def.country, def);
    for (const alt of def.alt_country_codes ?? []) if (!byCode.has(alt)) byCode.set(alt, def);
  }
  return byCode;
}

/** The regime definition for a country or regime code (`ES`, `EL`, `GR`…), or undefined. */
export function regimeDef(code: string | undefined | null): RegimeDef | undefined {
  if (!code) return undefined;
  return index().get(code.toUpperCase());
}

/** Every regime code GOBL knows, canonical codes only. */
export function regimeCodes(): string[] {
  return [...new Set([...index().values()].map((d) => d.country))].sort();
}

export function categoryDef(regime: RegimeDef | undefined, code: string | undefined): CategoryDef | undefined {
  if (!regime || !code) return undefined;
  return regime.categories.find((c) => c.code === code);
}
