// Strict equality of two JSON trees (same keys, same values, lists in the same order), which
// implies the same canonical JSON and therefore the same digest. Stops at the first difference.

export function isSameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!isSameJson(a[i], b[i])) return false;
    return true;
  }
  const proto = Object.getPrototypeOf(a);
  if (Array.isArray(b) || proto !== Object.getPrototypeOf(b)) return false;
  if (proto !== Object.prototype) return sameByKeys(a as Record<string, unknown>, b as Record<string, unknown>);
  // A plain object (all JSON objects are) inherits no enumerable key, so for…in lists its own
  // keys: no key arrays made (they were an eighth of all a prepare allocated), and each value
  // read through V8's enumeration cache.
  let count = 0;
  for (const key in a) {
    count++;
    if (!Object.hasOwn(b, key) || !isSameJson((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key])) return false;
  }
  for (const _key in b) count--;
  return count === 0;
}

function sameByKeys(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  const aKeys = Object.keys(a);
  if (aKeys.length !== Object.keys(b).length) return false;
  for (const key of aKeys) {
    if (!Object.hasOwn(b, key) || !isSameJson(a[key], b[key])) return false;
  }
  return true;
}
