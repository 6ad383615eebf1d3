// Preparing a tax combo for the totals, as GOBL's Combo.calculate does: the combo's country is
// dropped when it is the regime's own, the category definition (from the combo's country's regime,
// or GOBL's global categories without a regime) says whether it is retained or informative,
// supplies the `standard` key, clears percents for "no percent" keys, and turns a `rate` key into
// the percent (and surcharge) in force on the tax date. The combo node is updated in place.
import { categoryDef, regimeDef } from '../defs/index.ts';
import type { CategoryDef, RateDef, RateValueDef } from '../defs/types.ts';
import { BuildError } from '../engine/types.ts';
import type { Node } from '../engine/types.ts';
import { Percentage } from '../num/index.ts';
import { isNode, nonEmptyString, readPercent } from './fields.ts';
import { globalCategoryDef } from './global-categories.ts';

export type Extensions = Record<string, string>;

export interface PreparedCombo {
  node: Node;
  cat: string;
  /** The combo's country when it differs from the regime's, else ''. */
  country: string;
  key: string;
  /** Non-empty extension values only; undefined when there are none. */
  ext: Extensions | undefined;
  percent: Percentage | undefined;
  surcharge: Percentage | undefined;
  retained: boolean;
  informative: boolean;
}

/** Extension values that count (GOBL ignores empty codes), or undefined. */
export function cleanExtensions(value: unknown): Extensions | undefined {
  if (!isNode(value)) return undefined;
  let out: Extensions | undefined;
  for (const k in value) {
    const v = value[k];
    if (typeof v === 'string' && v !== '') (out ??= {})[k] = v;
  }
  return out;
}

function extSize(e: Extensions | undefined): number {
  let n = 0;
  for (const _ in e) n++;
  return n;
}

/** Every pair of `other` is in `e`; false when `e` is empty, as in GOBL. */
export function extContains(e: Extensions | undefined, other: Extensions | undefined): boolean {
  if (!e || extSize(e) === 0) return false;
  for (const k in other) if (e[k] !== other[k]) return false;
  return true;
}

export function extEquals(a: Extensions | undefined, b: Extensions | undefined): boolean {
  const n = extSize(a);
  if (n !== extSize(b)) return false;
  return n === 0 || extContains(a, b);
}

interface ParsedValue { percent: Percentage; surcharge: Percentage | undefined }
const parsedValues = new WeakMap<RateValueDef, ParsedValue>();

function parsedValue(v: RateValueDef): ParsedValue {
  let p = parsedValues.get(v);
  if (!p) {
    p = {
      percent: Percentage.parse(v.percent ?? ''),
      surcharge: v.surcharge === undefined ? undefined : Percentage.parse(v.surcharge),
    };
    parsedValues.set(v, p);
  }
  return p;
}

/** The rate definition for a key and rate: an exact match, else the first whose rate is the rate's base ("general" for "general+eqs"). */
function rateDefFor(cd: CategoryDef, key: string, rate: string): RateDef | undefined {
  const base = rate.split('+', 1)[0];
  let fallback: RateDef | undefined;
  for (const r of cd.rates ?? []) {
    const keys = r.keys ?? [];
    if (keys.length === 0 ? key !== '' : !keys.includes(key)) continue;
    if (r.rate === rate) return r;
    if (fallback === undefined && base === r.rate) fallback = r;
  }
  return fallback;
}

/** The newest value in force on `date` whose ext filter the combo's ext contains. */
function rateValueOn(rate: RateDef, date: string, ext: Extensions | undefined): RateValueDef | undefined {
  for (const v of rate.values ?? []) {
    if (v.ext && extSize(v.ext) > 0 && !extContains(ext, v.ext)) continue;
    if (!v.since || v.since <= date) return v;
  }
  return undefined;
}

function fault(code: string, message: string, path: string): BuildError {
  return new BuildError([{ code, message, paths: [path] }]);
}

/**
 * Prepares one combo for a tax date. `regimeCountry` is the document regime's country ('' without
 * one); `path` is the combo's path (`$.lines[0].taxes[0]`).
 */
export function prepareCombo(node: Node, regimeCountry: string, date: string, path: string): PreparedCombo {
  const cat = nonEmptyString(node.cat);
  let country = nonEmptyString(node.country);
  let key = nonEmptyString(node.key);
  const rate = nonEmptyString(node.rate);
  const ext = cleanExtensions(node.ext);
  let percent = readPercent(node, 'percent', path);
  let surcharge = readPercent(node, 'surcharge', path);
  const combo: PreparedCombo = { node, cat, country, key, ext, percent, surcharge, retained: false, informative: false };

  if (country === regimeCountry) {
    country = '';
    combo.country = '';
    if ('country' in node) delete node.country;
  }
  const lookup = country || regimeCountry;
  const regime = lookup ? regimeDef(lookup) : undefined;
  const cd = regime ? categoryDef(regime, cat) : globalCategoryDef(cat);
  if (!cd) {
    if (regime) throw fault('invalid-category', `tax category '${cat}' not defined in regime`, `${path}.cat`);
    writePercents(combo);
    return combo;
  }
  combo.retained = cd.retained === true;
  combo.informative = cd.informative === true;

  if (key === '' && cd.keys && cd.keys.length > 0) {
    key = 'standard';
    combo.key = key;
    node.key = key;
  }
  const keyDef = cd.keys?.find((k) => k.key === key);
  if (keyDef?.no_percent) {
    combo.percent = undefined;
    combo.surcharge = undefined;
    delete node.percent;
    delete node.surcharge;
    return combo;
  }

  if (rate !== '') {
    const rd = rateDefFor(cd, key, rate);
    if (!rd) {
      const message = key === ''
        ? `'${rate}' rate not defined in category '${cat}'`
        : `'${rate}' rate not defined for key '${key}' in category '${cat}'`;
      throw fault('invalid-rate', message, `${path}.rate`);
    }
    if (rd.values && rd.values.length > 0) {
      const value = rateValueOn(rd, date, ext);
      if (!value) throw fault('invalid-rate', `rate value unavailable for '${rate}' in '${cat}' on '${date}'`, `${path}.rate`);
      ({ percent, surcharge } = parsedValue(value));
      combo.percent = percent;
      combo.surcharge = surcharge;
    }
  }
  writePercents(combo);
  return combo;
}

function writePercents(combo: PreparedCombo): void {
  const { node } = combo;
  if (combo.percent) node.percent = combo.percent.toString();
  else delete node.percent;
  if (combo.surcharge) node.surcharge = combo.surcharge.toString();
  else delete node.surcharge;
}
