// Applies the compiled rules to a document the way GOBL's rules.Validate does: every value in
// the tree is visited with its GOBL type, and every active namespace's sets for that type are
// evaluated on it (guard, then assertions, then field / each / guarded subsets). Faults carry
// JSON paths from the root and are grouped per namespace, in GOBL's order.
import { concreteType, DYNAMIC_OBJECT } from '../../shape/schemas.ts';
import type { At, CompiledSet, Namespace, RuleContext } from './model.ts';
import { mapKeyType, structFields } from './typing.ts';
import type { FieldType } from './typing.ts';
import { isNil, isObject } from './values.ts';
import { typeSets, type Indexed, type TypeSets } from './select.ts';
import { codeInKey, isContextCheck } from './vocabulary.ts';

export interface RuleFault {
  code: string;
  message: string;
  path: string;
}

interface PlanEntry {
  name: string;
  type: FieldType;
}

/** What runs in one context: the sets by type (see select.ts), and the fields worth walking. */
interface Selection {
  byType: ReadonlyMap<string, TypeSets>;
  plans: Map<string, PlanEntry[]>;
}

interface Run {
  at: At;
  /** What can apply in this run's context. */
  selection: Selection;
  /** Faults by namespace (made on a namespace's first fault: most runs have none). */
  faults: Array<RuleFault[] | undefined>;
  // The path of the value being checked, as segments: only turned into text for a fault.
  path: Array<string | number>;
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** `base.name` or `base['odd-name']`, as json-path.ts writes paths. */
export function childPath(base: string, name: string): string {
  return IDENTIFIER.test(name) ? `${base}.${name}` : `${base}['${name.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}']`;
}

function pathText(segments: ReadonlyArray<string | number>): string {
  let path = '$';
  for (const s of segments) path = typeof s === 'number' ? `${path}[${s}]` : childPath(path, s);
  return path;
}

const SCHEMA_ID: FieldType = { kind: 'scalar', scalar: 'string', type: 'schema.ID' };
// Structs with `$addons` embed tax.Addons, whose rules apply to the struct itself.
const ADDONS: FieldType & { type: string } = { kind: 'object', type: 'tax.Addons' };

/** Object.keys(map).sort() without Array#sort's work space: maps hold a handful of keys. */
function sortedKeys(map: Record<string, unknown>): string[] {
  const keys = Object.keys(map);
  for (let i = 1; i < keys.length; i++) {
    const key = keys[i];
    let j = i - 1;
    while (j >= 0 && keys[j] > key) {
      keys[j + 1] = keys[j];
      j--;
    }
    keys[j + 1] = key;
  }
  return keys;
}

/**
 * Whether walking a value of this type can evaluate a set: a typed scalar (or a list of them)
 * only through its own type's sets. Objects always can (any object with `$addons` meets the
 * tax.Addons sets), and maps through their keys.
 */
function canMeetSets(type: FieldType, byType: ReadonlyMap<string, TypeSets>): boolean {
  switch (type.kind) {
    case 'scalar':
      return type.type !== undefined && byType.has(type.type);
    case 'array':
      return (type.type !== undefined && byType.has(type.type)) || type.of.kind !== 'scalar' || canMeetSets(type.of, byType);
    default:
      return true;
  }
}

export class RuleWalker {
  private readonly namespaces: Namespace[];
  private readonly byType = new Map<string, Indexed[]>();
  // Struct fields worth descending into: those typed with a GOBL type (plain strings, numbers
  // and booleans have no rules of their own; their parent's sets check them).
  private readonly plans = new Map<string, PlanEntry[]>();
  // What runs in each context met (regime, addons, active namespaces).
  private readonly selections = new Map<string, Selection>();

  private readonly valueGuarded: Namespace[];

  constructor(namespaces: Namespace[]) {
    this.namespaces = namespaces;
    this.valueGuarded = namespaces.filter((ns) => ns.guard !== undefined && !isContextCheck(ns.guard));
    namespaces.forEach((ns, i) => {
      for (const [type, sets] of ns.byType) {
        const list = this.byType.get(type) ?? [];
        for (const set of sets) list.push({ ns: i, set });
        this.byType.set(type, list);
      }
    });
  }

  /** Faults of `root`, whose type is `rootType` (`gobl.Envelope`, or `schema.Object` for a bare document). */
  validate(root: unknown, rootType: string, ctx: RuleContext): RuleFault[] {
    const at: At = { ctx, type: undefined, zero: false };
    const run: Run = {
      at,
      selection: this.selectionFor(root, at),
      faults: new Array(this.namespaces.length),
      path: [],
    };
    this.walk(run, root, { kind: 'object', type: rootType });
    const faults: RuleFault[] = [];
    for (const list of run.faults) if (list) faults.push(...list);
    return faults;
  }

  /** The sets of each type that run under one context (see select.ts), worked out once per context. */
  private selectionFor(root: unknown, at: At): Selection {
    // Namespace guards are context checks (`context: addon in […]`), part of the key already;
    // any other kind would be asked here, on every run.
    let key = `${at.ctx.regime}\u0000${at.ctx.addons.join(',')}\u0000`;
    for (const ns of this.valueGuarded) key += ns.guard!(root, at) ? '1' : '0';
    let found = this.selections.get(key);
    if (!found) {
      const active = this.namespaces.map((ns) => !ns.guard || ns.guard(root, at));
      const byType = new Map<string, TypeSets>();
      for (const [type, sets] of this.byType) {
        const selected = typeSets(sets, active, at);
        if (selected) byType.set(type, selected);
      }
      // Contexts are few (regime and addon combinations); the bound only guards against misuse.
      if (this.selections.size >= 256) this.selections.clear();
      found = { byType, plans: new Map() };
      this.selections.set(key, found);
    }
    return found;
  }

  private apply(run: Run, typeName: string, value: unknown, type: FieldType): void {
    const sets = run.selection.byType.get(typeName);
    if (!sets) return;
    for (const { ns, set } of sets.always) this.evalSet(run, ns, set, value, type, false);
    if (sets.byCode) {
      const code = codeInKey(value);
      const keyed = code === undefined ? undefined : sets.byCode.get(code);
      if (keyed) for (const { ns, set } of keyed) this.evalSet(run, ns, set, value, type, false);
    }
  }

  private evalSet(run: Run, ns: number, set: CompiledSet, value: unknown, type: FieldType | undefined, zero: boolean): void {
    const at = run.at;
    const t = set.type ?? type;
    const z = set.field !== undefined ? set.zero : zero;
    if (set.guard) {
      at.type = t;
      at.zero = z;
      if (!set.guard(value, at)) return;
    }
    for (const a of set.asserts) {
      for (const test of a.tests) {
        at.type = t;
        at.zero = z;
        if (!test(value, at)) {
          (run.faults[ns] ??= []).push({ code: a.id, message: a.desc, path: pathText(run.path) });
          break;
        }
      }
    }
    if (isNil(value)) return;
    const path = run.path;
    for (const sub of set.subsets) {
      if (sub.field !== undefined) {
        if (isObject(value)) {
          path.push(sub.field);
          this.evalSet(run, ns, sub, value[sub.field], sub.type, sub.zero);
          path.pop();
        }
      } else if (sub.each) {
        if (Array.isArray(value)) {
          for (let i = 0; i < value.length; i++) {
            path.push(i);
            this.evalSet(run, ns, sub, value[i], sub.type, false);
            path.pop();
          }
        }
      } else {
        this.evalSet(run, ns, sub, value, t, z);
      }
    }
  }

  /** A struct type's fields to walk in this context: those whose values can meet a set. */
  private planIn(selection: Selection, typeName: string): PlanEntry[] {
    let plan = selection.plans.get(typeName);
    if (!plan) {
      plan = this.plan(typeName).filter((f) => canMeetSets(f.type, selection.byType));
      selection.plans.set(typeName, plan);
    }
    return plan;
  }

  private plan(typeName: string): PlanEntry[] {
    let plan = this.plans.get(typeName);
    if (!plan) {
      plan = [];
      for (const [name, info] of structFields(typeName) ?? []) {
        const plain = info.type.kind === 'scalar' && info.type.type === undefined;
        if (!plain) plan.push({ name, type: info.type });
      }
      this.plans.set(typeName, plan);
    }
    return plan;
  }

  private walk(run: Run, value: unknown, type: FieldType): void {
    if (value === null || value === undefined) return;
    const path = run.path;
    switch (type.kind) {
      case 'object': {
        if (!isObject(value)) return;
        const declared = type.type;
        const name = declared === DYNAMIC_OBJECT ? concreteType(value, declared) : declared;
        this.apply(run, declared, value, type);
        if (declared === DYNAMIC_OBJECT && value.$schema !== undefined) {
          path.push('$schema');
          this.walk(run, value.$schema, SCHEMA_ID);
          path.pop();
        }
        if (name !== declared) this.apply(run, name, value, { kind: 'object', type: name });
        if (value.$addons !== undefined) this.apply(run, ADDONS.type, value, ADDONS);
        for (const f of this.planIn(run.selection, name)) {
          const v = value[f.name];
          if (v === undefined || v === null) continue;
          path.push(f.name);
          this.walk(run, v, f.type);
          path.pop();
        }
        return;
      }
      case 'array': {
        if (!Array.isArray(value)) return;
        if (type.type) this.apply(run, type.type, value, type);
        const of = type.of;
        if (of.kind === 'scalar' && of.type === undefined) return;
        for (let i = 0; i < value.length; i++) {
          path.push(i);
          this.walk(run, value[i], of);
          path.pop();
        }
        return;
      }
      case 'map': {
        if (!isObject(value)) return;
        if (type.type) this.apply(run, type.type, value, type);
        const keyType = mapKeyType(type);
        // Go visits map entries in sorted key order
        for (const key of sortedKeys(value)) {
          path.push(key);
          this.apply(run, keyType.type!, key, keyType);
          this.walk(run, value[key], type.of);
          path.pop();
        }
        return;
      }
      default:
        if (type.type) this.apply(run, type.type, value, type);
    }
  }
}
