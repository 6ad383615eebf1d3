// GOBL's `norm` engine: one depth-first walk of the document, children before their parent,
// calling the normalisers registered for each node's type.
//
// What it reproduces from norm/engine.go and norm/registry.go:
// * struct fields are visited in declaration (schema) order, list elements in order, and the
//   node's own normalisers run after all of its fields;
// * nil elements are pruned from lists of objects before they are walked;
// * map values are not walked (they are plain strings), but the map itself is a node
//   (`tax.Extensions`), and because Go map fields are values, a map field the document does
//   not have is still normalised as an empty map;
// * scalar types have normalisers too (every `cbc.Code`): a rule whose type is a scalar type
//   receives a box `{ value }` and may replace `box.value`;
// * per type, GOBL's own package normalisers run first, then regime and addon normalisers in
//   the order their Go packages are initialised (see NORM_PACKAGE_ORDER).
import type { BuildContext, Node, NormRule } from '../engine/types.ts';
import { isObject, typeInfo, type FieldType } from '../shape/schemas.ts';

/** What a scalar-type rule receives: replace `value` to change the field. */
export interface ScalarBox extends Node {
  value: unknown;
}

type RuleIndex = Map<string, NormRule[]>;

const indexCache = new WeakMap<readonly NormRule[], RuleIndex>();

function indexRules(rules: readonly NormRule[]): RuleIndex {
  let index = indexCache.get(rules);
  if (index) return index;
  index = new Map();
  for (const rule of rules) {
    const list = index.get(rule.type);
    if (list) list.push(rule);
    else index.set(rule.type, [rule]);
  }
  indexCache.set(rules, index);
  return index;
}

function applyRules(node: Node, rules: NormRule[] | undefined, ctx: BuildContext): void {
  if (!rules) return;
  for (const rule of rules) {
    if (!rule.when || rule.when(node, ctx)) rule.apply(node, ctx);
  }
}

function normalizeScalar(value: unknown, rules: NormRule[] | undefined, ctx: BuildContext): unknown {
  if (!rules) return value;
  const box: ScalarBox = { value };
  applyRules(box, rules, ctx);
  return box.value;
}

/**
 * Normalises `doc` (of type `ctx.rootType`) in place with `rules`, already in the order they
 * should run for each type (see orderNormRules).
 */
export function normalizeTree(doc: Node, ctx: BuildContext, rules: NormRule[]): void {
  const index = indexRules(rules);
  walkStruct(doc, ctx.rootType, index, ctx);
}

function walkStruct(node: Node, typeName: string, index: RuleIndex, ctx: BuildContext): void {
  const info = typeInfo(typeName);
  if (info?.shape === 'struct') {
    for (const field of info.fields) {
      const type = info.field(field)!;
      const value = node[field];
      if (value === undefined || value === null) {
        if (type.kind === 'map') normalizeAbsentMap(node, field, type, index, ctx);
        continue;
      }
      const next = walkValue(value, type, index, ctx);
      if (next !== value) node[field] = next;
    }
  }
  applyRules(node, index.get(typeName), ctx);
}

// A Go map field is a value: GOBL normalises it even when the document has none.
function normalizeAbsentMap(parent: Node, field: string, type: FieldType & { kind: 'map' }, index: RuleIndex, ctx: BuildContext): void {
  const rules = type.type ? index.get(type.type) : undefined;
  if (!rules) return;
  const empty: Node = {};
  applyRules(empty, rules, ctx);
  if (Object.keys(empty).length > 0) parent[field] = empty;
}

/** Walks one value; returns the value to keep in its place (scalars may be replaced). */
function walkValue(value: unknown, type: FieldType, index: RuleIndex, ctx: BuildContext): unknown {
  switch (type.kind) {
    case 'object':
      if (isObject(value)) walkStruct(value, type.type, index, ctx);
      return value;
    case 'array': {
      if (!Array.isArray(value)) return value;
      // GOBL drops nil entries from lists of pointers (objects) before walking them.
      if (type.of.kind === 'object' && value.includes(null)) {
        const kept = value.filter((item) => item !== null && item !== undefined);
        value.length = 0;
        value.push(...kept);
      }
      for (let i = 0; i < value.length; i++) {
        const next = walkValue(value[i], type.of, index, ctx);
        if (next !== value[i]) value[i] = next;
      }
      return value;
    }
    case 'map':
      if (isObject(value) && type.type) applyRules(value, index.get(type.type), ctx);
      return value;
    default:
      return type.type ? normalizeScalar(value, index.get(type.type), ctx) : value;
  }
}

// ---- Ordering

/**
 * The order in which GOBL's Go packages that register regime and addon normalisers are
 * initialised (Go initialises packages in import-path order once their imports are done, so an
 * addon that imports its regime comes after it; others come before all regimes).
 */
export const NORM_PACKAGE_ORDER: readonly string[] = [
  'addon:co/dian', 'addon:it/ticket', 'addon:pl/favat', 'regime:AE', 'regime:AR', 'addon:ar/arca',
  'regime:AT', 'regime:BE', 'regime:BR', 'regime:CA', 'regime:CH', 'regime:CO', 'regime:DE',
  'regime:DK', 'regime:ES', 'addon:es/facturae', 'addon:es/sii', 'addon:es/tbai', 'addon:es/verifactu',
  'regime:FI', 'regime:FR', 'addon:eu/en16931', 'addon:de/xrechnung', 'addon:de/zugferd',
  'addon:fr/choruspro', 'addon:fr/facturx', 'regime:GB', 'regime:EL', 'addon:gr/mydata', 'regime:IE',
  'regime:IN', 'regime:IT', 'addon:it/sdi', 'regime:MX', 'regime:NL', 'regime:NO', 'regime:PL',
  'regime:PT', 'regime:SA', 'regime:SE', 'regime:SG', 'regime:US',
];

/** The package an addon key belongs to: `de-xrechnung-v3` → `addon:de/xrechnung`. */
export function addonPackage(key: string): string {
  const base = key.replace(/-v[0-9][0-9.]*$/, '');
  const dash = base.indexOf('-');
  return `addon:${dash < 0 ? base : `${base.slice(0, dash)}/${base.slice(dash + 1)}`}`;
}

/** The package of a regime code (`GR` is GOBL's `EL`). */
export function regimePackage(code: string): string {
  return `regime:${code.toUpperCase() === 'GR' ? 'EL' : code.toUpperCase()}`;
}

function packageRank(pkg: string): number {
  const rank = NORM_PACKAGE_ORDER.indexOf(pkg);
  return rank < 0 ? NORM_PACKAGE_ORDER.length : rank;
}

export interface RuleSource {
  /** `regime:ES`, `addon:es/tbai` (see regimePackage / addonPackage). */
  pkg: string;
  rules: readonly NormRule[];
}

/**
 * GOBL's order: its own package normalisers first, then each regime or addon package's
 * normalisers in Go package initialisation order (a stable sort: equal ranks keep their order).
 */
export function orderNormRulesByPackage(generic: readonly NormRule[], sources: readonly RuleSource[]): NormRule[] {
  const ranked = sources.map((source, i) => ({ source, i, rank: packageRank(source.pkg) }));
  ranked.sort((a, b) => a.rank - b.rank || a.i - b.i);
  return [...generic, ...ranked.flatMap(({ source }) => source.rules)];
}

/**
 * The simple form: generic, then regime, then addon normalisers. GOBL runs an addon before the
 * regime when the addon's package initialises first (`pl-favat`, `co-dian`, `it-ticket`, and
 * `eu-en16931` for regimes after FR); pass `addonKeys` (the addon of each list in `addon`,
 * in order) and `regimeCode` to get that order via orderNormRulesByPackage.
 */
export function orderNormRules(
  generic: readonly NormRule[],
  regime: readonly NormRule[],
  addon: readonly NormRule[] | readonly (readonly NormRule[])[],
  keys?: { regimeCode?: string; addonKeys?: readonly string[] },
): NormRule[] {
  const addonLists = addon.length > 0 && Array.isArray(addon[0]) ? (addon as readonly (readonly NormRule[])[]) : [addon as readonly NormRule[]];
  if (!keys?.addonKeys || keys.addonKeys.length !== addonLists.length) {
    return [...generic, ...regime, ...addonLists.flat()];
  }
  const sources: RuleSource[] = [
    { pkg: keys.regimeCode ? regimePackage(keys.regimeCode) : 'regime:', rules: regime },
    ...addonLists.map((rules, i) => ({ pkg: addonPackage(keys.addonKeys![i]), rules })),
  ];
  return orderNormRulesByPackage(generic, sources);
}
