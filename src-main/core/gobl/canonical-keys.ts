// The key order of canonical JSON: by Unicode code point (canonical.ts, canonical-bytes.ts).

/** An object's own keys in code point order. */
export function sortedKeys(obj: Record<string, unknown>): string[] {
  const keys = Object.keys(obj);
  // Objects have a handful of keys: an insertion sort by UTF-16 units beats Array#sort, whose
  // default comparison converts every element. Units and code points agree below U+D800.
  let needsCodePoints = false;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i];
    if (!needsCodePoints && hasHighUnit(key)) needsCodePoints = true;
    let j = i - 1;
    while (j >= 0 && keys[j] > key) {
      keys[j + 1] = keys[j];
      j--;
    }
    keys[j + 1] = key;
  }
  return needsCodePoints ? keys.sort(compareCodePoints) : keys;
}

export function hasHighUnit(key: string): boolean {
  for (let i = 0; i < key.length; i++) if (key.charCodeAt(i) >= 0xd800) return true;
  return false;
}

// Compares strings by Unicode code point rather than UTF-16 code unit:
// surrogates (U+D800–U+DFFF) encode code points above U+FFFF, so they must
// sort after U+E000–U+FFFF, not before.
export function compareCodePoints(a: string, b: string): number {
  const len = Math.min(a.length, b.length);
  for (let i = 0; i < len; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return codePointRank(x) - codePointRank(y);
  }
  return a.length - b.length;
}

function codePointRank(unit: number): number {
  if (unit >= 0xd800 && unit <= 0xdfff) return unit + 0x2000;
  if (unit >= 0xe000) return unit - 0x800;
  return unit;
}
