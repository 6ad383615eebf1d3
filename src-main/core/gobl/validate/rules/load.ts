// Reads GOBL's rules data (data/rules/*.json, one file per package, regime or addon family)
// and compiles it once: every guard and test description becomes a check, every set learns the
// GOBL type of the value it will see, and each namespace indexes its sets by the type they
// apply to, so the walk only has to look up the type of each node.
import { readdirSync } from 'node:fs';
import { goblDataDir, readGoblData } from '../../defs/index.ts';
import type { CompiledSet, Namespace, Origin } from './model.ts';
import { compileGuard, compileTests } from './parse.ts';
import { elementOf, fieldOf, typeByName } from './typing.ts';
import type { FieldType } from './typing.ts';

/** A rules file as GOBL publishes it (rules.Set marshalled to JSON). */
export interface RuleSetJson {
  id?: string;
  package?: string;
  object?: string;
  field?: string;
  each?: boolean;
  guard?: string;
  assert?: Array<{ id: string; desc?: string; tests: string }>;
  subsets?: RuleSetJson[];
}

export function ruleFiles(): string[] {
  return readdirSync(`${goblDataDir()}rules`).filter((f) => f.endsWith('.json')).sort();
}

export function readRuleFile(file: string): RuleSetJson {
  return readGoblData<RuleSetJson>(`rules/${file}`);
}

function compileSet(json: RuleSetJson, type: FieldType | undefined, zero: boolean, origin: Origin): CompiledSet {
  const set: CompiledSet = {
    field: json.field,
    each: json.each === true,
    guard: json.guard ? compileGuard(json.guard, origin) : undefined,
    asserts: (json.assert ?? []).map((a) => ({ id: a.id, desc: a.desc ?? '', tests: compileTests(a.tests, origin, a.id) })),
    subsets: [],
    type,
    zero,
  };
  for (const sub of json.subsets ?? []) {
    if (sub.field) {
      const info = fieldOf(type, sub.field);
      set.subsets.push(compileSet(sub, info?.type, info?.zero ?? false, origin));
    } else if (sub.each) {
      set.subsets.push(compileSet(sub, elementOf(type), false, origin));
    } else {
      set.subsets.push(compileSet(sub, type, zero, origin));
    }
  }
  return set;
}

function compileNamespace(file: string, json: RuleSetJson): Namespace {
  const pkg = json.package ?? file.replace(/\.json$/, '');
  const ns: Namespace = {
    id: json.id ?? pkg,
    pkg,
    guard: json.guard ? compileGuard(json.guard, { pkg, object: '', file }) : undefined,
    byType: new Map(),
  };
  for (const sub of json.subsets ?? []) {
    const object = sub.object ?? '';
    const compiled = compileSet(sub, object ? typeByName(object) : undefined, false, { pkg, object, file });
    const list = ns.byType.get(object) ?? [];
    list.push(compiled);
    ns.byType.set(object, list);
  }
  return ns;
}

// Core packages first, then regimes, then addons: the order GOBL registers them in (it only
// decides the order of faults).
function rank(ns: Namespace): number {
  if (ns.guard) return 2;
  return ns.pkg.length === 2 ? 1 : 0;
}

let namespaces: Namespace[] | undefined;

/** Every rules namespace, compiled on first use. */
export function ruleNamespaces(): Namespace[] {
  if (!namespaces) {
    const list = ruleFiles().map((file) => compileNamespace(file, readRuleFile(file)));
    namespaces = list.sort((a, b) => rank(a) - rank(b));
  }
  return namespaces;
}
