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

// How to walk one struct type under one rule list, worked out once: only the fields whose
// subtree can change are visited (a field with no rules anywhere below it, and no list of
// objects to prune, would be walked for nothing), and each keeps its type's rules at hand.
interface StructPlan {
  steps: FieldStep[];
  rules: NormRule[] | undefined;
}

type FieldStep =
  | { kind: 'object'; field: string; plan: StructPlan }
  | { kind: 'array'; field: string; of: ValueStep }
  | { kind: 'map'; field: string; rules: NormRule[] }
  | { kind: 'scalar'; field: string; rules: NormRule[] };

// What to do with one list element (a list of lists is walked like GOBL walks it: element by element).
type ValueStep =
  | { kind: 'object'; plan: StructPlan; prune: true }
  | { kind: 'array'; of: ValueStep; prune: false }
  | { kind: 'map'; rules: NormRule[]; prune: false }
  | { kind: 'scalar'; rules: NormRule[]; prune: false };

/** The rules of one rule list by type, and the walk plans derived from them. */
interface PlannedRules {
  byType: RuleIndex;
  plans: Map<string, StructPlan>;
  // Whether a type's subtree holds anything to do (see needsWalk); computed once per type.
  needs: Map<string, boolean>;
}

const plannedCache = new WeakMap<readonly NormRule[], PlannedRules>();

function plannedRules(rules: readonly NormRule[]): PlannedRules {
  let planned = plannedCache.get(rules);
  if (planned) return planned;
  const byType: RuleIndex = new Map();
  for (const rule of rules) {
    const list = byType.get(rule.type);
    if (list) list.push(rule);
    else byType.set(rule.type, [rule]);
  }
  planned = { byType, plans: new Map(), needs: new Map() };
  plannedCache.set(rules, planned);
  return planned;
}

/**
 * Whether walking a value of this type can change anything: some rule applies to it or below
 * it, or it holds a list of objects (whose nil entries are pruned). A type met again while it
 * is still being worked out (recursive types) counts as needed, which is always safe.
 */
function needsWalk(type: FieldType, pr: PlannedRules): boolean {
  switch (type.kind) {
    case 'object':
      return structNeedsWalk(type.type, pr);
    case 'array':
      return type.of.kind === 'object' || needsWalk(type.of, pr);
    default:
      return type.type !== undefined && pr.byType.has(type.type);
  }
}

function structNeedsWalk(typeName: string, pr: PlannedRules): boolean {
  const known = pr.needs.get(typeName);
  if (known !== undefined) return known;
  pr.needs.set(typeName, true);
  let needed = pr.byType.has(typeName);
  const info = typeInfo(typeName);
  if (!needed && info?.shape === 'struct') {
    needed = info.fields.some((field) => needsWalk(info.field(field)!, pr));
  }
  pr.needs.set(typeName, needed);
  return needed;
}

function structPlan(typeName: string, pr: PlannedRules): StructPlan {
  let plan = pr.plans.get(typeName);
  if (plan) return plan;
  // Registered before its fields are planned, so a recursive type reuses it.
  plan = { steps: [], rules: pr.byType.get(typeName) };
  pr.plans.set(typeName, plan);
  const info = typeInfo(typeName);
  if (info?.shape === 'struct') {
    for (const field of info.fields) {
      const step = fieldStep(field, info.field(field)!, pr);
      if (step) plan.steps.push(step);
    }
  }
  return plan;
}

function fieldStep(field: string, type: FieldType, pr: PlannedRules): FieldStep | undefined {
  if (!needsWalk(type, pr)) return undefined;
  switch (type.kind) {
    case 'object':
      return { kind: 'object', field, plan: structPlan(type.type, pr) };
    case 'array':
      return { kind: 'array', field, of: valueStep(type.of, pr) };
    case 'map':
      return { kind: 'map', field, rules: pr.byType.get(type.type!)! };
    default:
      return { kind: 'scalar', field, rules: pr.byType.get(type.type!)! };
  }
}

function valueStep(type: FieldType, pr: PlannedRules): ValueStep {
  switch (type.kind) {
    case 'object':
      return { kind: 'object', plan: structPlan(type.type, pr), prune: true };
    case 'array':
      return { kind: 'array', of: valueStep(type.of, pr), prune: false };
    case 'map':
      return { kind: 'map', rules: (type.type !== undefined && pr.byType.get(type.type)) || [], prune: false };
    default:
      return { kind: 'scalar', rules: (type.type !== undefined && pr.byType.get(type.type)) || [], prune: false };
  }
}

function applyRules(node: Node, rules: NormRule[] | undefined, ctx: BuildContext): void {
  if (!rules) return;
  for (const rule of rules) {
    if (!rule.when || rule.when(node, ctx)) rule.apply(node, ctx);
  }
}

function normalizeScalar(value: unknown, rules: NormRule[], ctx: BuildContext): unknown {
  if (rules.length === 0) return value;
  const box: ScalarBox = { value };
  applyRules(box, rules, ctx);
  return box.value;
}

/**
 * Normalises `doc` (of type `ctx.rootType`) in place with `rules`, already in the order they
 * should run for each type (see orderNormRules).
 */
export function normalizeTree(doc: Node, ctx: BuildContext, rules: NormRule[]): void {
  walkStruct(doc, structPlan(ctx.rootType, plannedRules(rules)), ctx);
}

function walkStruct(node: Node, plan: StructPlan, ctx: BuildContext): void {
  for (const step of plan.steps) {
    const value = node[step.field];
    if (value === undefined || value === null) {
      if (step.kind === 'map') normalizeAbsentMap(node, step.field, step.rules, ctx);
      continue;
    }
    switch (step.kind) {
      case 'object':
        if (isObject(value)) walkStruct(value, step.plan, ctx);
        break;
      case 'array':
        if (Array.isArray(value)) walkList(value, step.of, ctx);
        break;
      case 'map':
        if (isObject(value)) applyRules(value, step.rules, ctx);
        break;
      default: {
        const next = normalizeScalar(value, step.rules, ctx);
        if (next !== value) node[step.field] = next;
      }
    }
  }
  applyRules(node, plan.rules, ctx);
}

// A Go map field is a value: GOBL normalises it even when the document has none.
function normalizeAbsentMap(parent: Node, field: string, rules: NormRule[], ctx: BuildContext): void {
  const empty: Node = {};
  applyRules(empty, rules, ctx);
  if (Object.keys(empty).length > 0) parent[field] = empty;
}

function walkList(list: unknown[], of: ValueStep, ctx: BuildContext): void {
  // GOBL drops nil entries from lists of pointers (objects) before walking them.
  if (of.prune && list.includes(null)) {
    const kept = list.filter((item) => item !== null && item !== undefined);
    list.length = 0;
    list.push(...kept);
  }
  for (let i = 0; i < list.length; i++) {
    const item = list[i];
    switch (of.kind) {
      case 'object':
        if (isObject(item)) walkStruct(item, of.plan, ctx);
        break;
      case 'array':
        if (Array.isArray(item)) walkList(item, of.of, ctx);
        break;
      case 'map':
        if (isObject(item)) applyRules(item, of.rules, ctx);
        break;
      default: {
        const next = normalizeScalar(item, of.rules, ctx);
        if (next !== item) list[i] = next;
      }
    }
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
