// Which extensions the new invoice's `preceding[0].ext` must carry, read from GOBL's own rule
// sets (data/rules): an assertion `ext require [k…]` on `bill.Invoice › preceding › each › ext`,
// reached through guards on the regime, the addons and the invoice type. GOBL's Correct does not
// check these — its validation does, once the corrective is built — so refusing here with the
// same rule code only moves the same fault to where the user can still supply the option.
import { readdirSync } from 'node:fs';
import { goblDataDir, readGoblData } from '../defs/index.ts';

interface RuleAssert { id: string; desc: string; tests: string }
interface RuleSet {
  id?: string;
  object?: string;
  field?: string;
  each?: boolean;
  guard?: string;
  assert?: RuleAssert[];
  subsets?: RuleSet[];
}

export interface GuardFacts {
  regime: string | undefined;
  addons: readonly string[];
  type: string;
}

export interface ExtRequirement { key: string; ruleId: string; desc: string }

const PATH = ['preceding', '*', 'ext'];

function listIn(guard: string, prefix: string): string[] | undefined {
  if (!guard.startsWith(prefix)) return undefined;
  const m = /^\[(.*)\]$/.exec(guard.slice(prefix.length).trim());
  return m ? m[1].split(',').map((s) => s.trim()).filter(Boolean) : undefined;
}

/** True when the guard is known to hold; guards we cannot judge here count as not holding. */
function guardHolds(guard: string, facts: GuardFacts): boolean {
  const addons = listIn(guard, 'context: addon in');
  if (addons) return addons.some((a) => facts.addons.includes(a));
  const regimes = listIn(guard, 'context: regime in');
  if (regimes) return facts.regime !== undefined && regimes.includes(facts.regime);
  const types = listIn(guard, 'invoice type in');
  if (types) return types.includes(facts.type);
  return false;
}

function walk(set: RuleSet, path: string[], inInvoice: boolean, facts: GuardFacts, out: ExtRequirement[]): void {
  if (set.guard && !guardHolds(set.guard, facts)) return;
  let invoice = inInvoice;
  let here = path;
  if (set.object) {
    invoice = set.object === 'bill.Invoice';
    here = [];
  }
  if (set.field) here = [...here, set.field];
  if (set.each) here = [...here, '*'];
  if (invoice && here.length === PATH.length && here.every((p, i) => p === PATH[i])) {
    for (const a of set.assert ?? []) {
      for (const key of listIn(a.tests, 'ext require') ?? []) out.push({ key, ruleId: a.id, desc: a.desc });
    }
  }
  if (invoice && !PATH.slice(0, here.length).every((p, i) => p === here[i])) return;
  for (const sub of set.subsets ?? []) walk(sub, here, invoice, facts, out);
}

let ruleSets: RuleSet[] | undefined;

function allRuleSets(): RuleSet[] {
  ruleSets ??= readdirSync(`${goblDataDir()}rules`).filter((f) => f.endsWith('.json')).sort()
    .map((f) => readGoblData<RuleSet>(`rules/${f}`));
  return ruleSets;
}

export function requiredPrecedingExt(facts: GuardFacts): ExtRequirement[] {
  const out: ExtRequirement[] = [];
  for (const set of allRuleSets()) walk(set, [], false, facts, out);
  return out;
}
