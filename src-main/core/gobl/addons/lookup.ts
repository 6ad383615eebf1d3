// Small readers shared by the addon normalisers: key maps with GOBL's sub-key fallback, tags,
// tax combos by category and the reverse lookup of a key → code table.
import type { Node } from '../engine/types.ts';

/**
 * A key → code table looked up as GOBL's CodeMap.Lookup does: the exact key first, then the key
 * with its last `+sub-key` removed, and so on (`card+credit` falls back to `card`).
 */
export function lookupKeyCode(map: Readonly<Record<string, string>>, key: unknown): string {
  let k = typeof key === 'string' ? key : '';
  for (;;) {
    if (Object.prototype.hasOwnProperty.call(map, k)) return map[k];
    if (k === '') return '';
    const cut = k.lastIndexOf('+');
    k = cut < 0 ? '' : k.slice(0, cut);
  }
}

/** The key whose code is `code` (GOBL's Extensions.Lookup), or '' when none has it. */
export function keyForCode(map: Readonly<Record<string, string>>, code: string): string {
  for (const [key, value] of Object.entries(map)) if (value === code) return key;
  return '';
}

/** Whether a `+`-joined key contains `part` (GOBL's Key.Has). */
export function keyHas(key: unknown, part: string): boolean {
  return typeof key === 'string' && key.split('+').includes(part);
}

export function hasTag(doc: Node, tag: string): boolean {
  return Array.isArray(doc.$tags) && doc.$tags.includes(tag);
}

/** The first combo of a line's `taxes` with that category (GOBL's Set.Get). */
export function comboFor(taxes: unknown, category: string): Node | undefined {
  if (!Array.isArray(taxes)) return undefined;
  return taxes.find((c) => c && typeof c === 'object' && c.cat === category);
}

/** A table's entry for `key` ('' when absent), never an inherited Object property. */
export function own(map: Readonly<Record<string, string>>, key: unknown): string {
  return typeof key === 'string' && Object.prototype.hasOwnProperty.call(map, key) ? map[key] : '';
}

export function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** A combo's tax country when it is set and not the given home country. */
export function isForeignCombo(combo: Node, home: string): boolean {
  const country = str(combo.country);
  return country !== '' && country !== home;
}
