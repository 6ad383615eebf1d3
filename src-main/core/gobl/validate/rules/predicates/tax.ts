// tax: combos against the regime's categories, keys and rates; extension keys GOBL defines;
// add-ons GOBL knows; regime definitions.
import type { PredicateTable } from './table.ts';
import type { At } from '../model.ts';
import type { CategoryDef, RegimeDef } from '../../../defs/types.ts';
import { addonDef, regimeDef } from '../../../defs/index.ts';
import { isKnownExtension } from './extensions.ts';
import { isNil, keyHasPrefix, list, obj, str } from '../values.ts';

// A combo's own country names its regime; otherwise the document's regime.
function regimeFor(combo: Record<string, any>, at: At): RegimeDef | undefined {
  const country = str(combo.country);
  return country ? regimeDef(country) : at.ctx.regimeDef;
}

function categoryOf(combo: Record<string, any>, at: At): CategoryDef | undefined {
  return regimeFor(combo, at)?.categories.find((c) => c.code === str(combo.cat));
}

// tax.CategoryDef.RateDef: exact rate with the key, else the first whose rate prefixes it.
function rateDefined(cat: CategoryDef, key: string, rate: string): boolean {
  let fallback = false;
  for (const r of cat.rates ?? []) {
    const keys = r.keys ?? [];
    const hasKey = (keys.length === 0 && key === '') || keys.includes(key);
    if (!hasKey) continue;
    if (r.rate === rate) return true;
    if (keyHasPrefix(rate, r.rate)) fallback = true;
  }
  return fallback;
}

function dateOrder(v: unknown): boolean {
  let previous: string | undefined;
  for (const value of list(v)) {
    const rv = obj(value) ?? {};
    if (obj(rv.ext) && Object.keys(rv.ext).length > 0) continue;
    const since = str(rv.since);
    if (previous && since && !(since < previous)) return false;
    previous = since || undefined;
  }
  return true;
}

function validTimeZone(v: unknown): boolean {
  if (typeof v !== 'string') return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: v });
    return true;
  } catch {
    return v === 'Local' || v === '';
  }
}

export const tax: PredicateTable = {
  'add-on must be registered': (v) => typeof v === 'string' && addonDef(v) !== undefined,
  'category in regime': (v, at) => {
    const combo = obj(v);
    if (!combo) return true;
    const rd = regimeFor(combo, at);
    return !rd || rd.categories.some((c) => c.code === str(combo.cat));
  },
  'key in category': (v, at) => {
    const combo = obj(v);
    if (!combo || str(combo.key) === '') return true;
    const cat = categoryOf(combo, at);
    return !cat || (cat.keys ?? []).some((k) => k.key === str(combo.key));
  },
  'rate in key': (v, at) => {
    const combo = obj(v);
    if (!combo || str(combo.rate) === '') return true;
    const cat = categoryOf(combo, at);
    return !cat || rateDefined(cat, str(combo.key), str(combo.rate));
  },
  'percent valid for key': (v, at) => {
    const combo = obj(v);
    if (!combo) return true;
    const cat = categoryOf(combo, at);
    if (!cat) return true;
    const hasPercent = !isNil(combo.percent);
    if (str(combo.key) === '') return hasPercent;
    const key = (cat.keys ?? []).find((k) => k.key === str(combo.key));
    if (!key) return true;
    return key.no_percent ? !hasPercent : hasPercent;
  },
  'surcharge requires percent': (v) => {
    const combo = obj(v);
    return !combo || isNil(combo.surcharge) || !isNil(combo.percent);
  },
  'extension keys defined': (v) => {
    const combo = obj(v);
    return !combo || Object.keys(obj(combo.ext) ?? {}).every(isKnownExtension);
  },
  'no duplicate categories': (v) => {
    if (!Array.isArray(v)) return true;
    const seen = new Set<string>();
    for (const c of v) {
      if (isNil(c)) continue;
      const cat = str(obj(c)?.cat);
      if (seen.has(cat)) return false;
      seen.add(cat);
    }
    return true;
  },
  'date order': dateOrder,
  'valid time zone': validTimeZone,
};
