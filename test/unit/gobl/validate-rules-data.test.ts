// Walks every file of GOBL's rules data (data/rules) so that nothing in it is silently ignored:
// every test and guard description must be understood, every field must exist on its type,
// and every named predicate we register must be one the data refers to.
import { describe, expect, it } from 'vitest';
import { readRuleFile, ruleFiles, ruleNamespaces } from '../../../src-main/core/gobl/validate/rules/load.ts';
import type { RuleSetJson } from '../../../src-main/core/gobl/validate/rules/load.ts';
import { unknownTexts } from '../../../src-main/core/gobl/validate/rules/parse.ts';
import { registeredPredicates } from '../../../src-main/core/gobl/validate/rules/predicates/index.ts';
import { elementOf, fieldOf, typeByName } from '../../../src-main/core/gobl/validate/rules/typing.ts';
import type { FieldType } from '../../../src-main/core/gobl/validate/rules/typing.ts';

function unresolvedFields(set: RuleSetJson, type: FieldType | undefined, where: string, out: string[]): void {
  for (const sub of set.subsets ?? []) {
    if (sub.object) unresolvedFields(sub, typeByName(sub.object), sub.object, out);
    else if (sub.field) {
      const field = fieldOf(type, sub.field);
      if (!field) out.push(`${where}.${sub.field}`);
      unresolvedFields(sub, field?.type, `${where}.${sub.field}`, out);
    } else if (sub.each) {
      const element = elementOf(type);
      if (!element) out.push(`${where}[]`);
      unresolvedFields(sub, element, `${where}[]`, out);
    } else unresolvedFields(sub, type, where, out);
  }
}

describe('the rules data', () => {
  it('has a namespace per file, and every file is read', () => {
    expect(ruleFiles().length).toBeGreaterThanOrEqual(52);
    expect(ruleNamespaces().map((ns) => ns.id).sort()).toEqual(ruleFiles().map((f) => readRuleFile(f).id).sort());
  });

  it('has no test or guard description the interpreter does not understand', () => {
    ruleNamespaces();
    expect(unknownTexts().map((u) => `${u.origin.file}: ${u.id ?? 'guard'}: ${u.text}`)).toEqual([]);
  });

  it('names only fields and lists its types have', () => {
    const out: string[] = [];
    for (const file of ruleFiles()) unresolvedFields(readRuleFile(file), undefined, file, out);
    expect(out).toEqual([]);
  });

  it('refers to every named predicate we register (no dead or misspelt entries)', () => {
    const texts = new Map<string, Set<string>>();
    const collect = (set: RuleSetJson, pkg: string, object: string): void => {
      const o = set.object ?? object;
      const seen = texts.get(pkg) ?? new Set<string>();
      texts.set(pkg, seen);
      const add = (text: string, id?: string): void => {
        for (const t of [text, ...text.split(', ')]) {
          seen.add(t).add(`${o} ${t}`);
          if (id) seen.add(`${id} ${t}`);
        }
      };
      if (set.guard) add(set.guard);
      for (const a of set.assert ?? []) add(a.tests, a.id);
      for (const sub of set.subsets ?? []) collect(sub, pkg, o);
    };
    for (const file of ruleFiles()) {
      const json = readRuleFile(file);
      collect(json, json.package ?? '', '');
    }
    const unused = registeredPredicates().filter((entry) => {
      const [pkg, key] = entry.split(': ');
      return !texts.get(pkg)?.has(key);
    });
    expect(unused).toEqual([]);
  });
});
