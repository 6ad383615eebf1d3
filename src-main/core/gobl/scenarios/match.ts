// Which scenarios apply to an invoice (GOBL's tax.ScenarioSet.SummaryFor and
// Scenario.match), and what they add up to.
import type { ScenarioDef } from '../defs/types.ts';
import type { BuildContext, Node } from '../engine/types.ts';

type Ext = Record<string, string>;

/** What an invoice offers to the scenario filters (GOBL's ScenarioDocument). */
export interface ScenarioFacts {
  type: string;
  tags: string[];
  categories: string[];
  /** `tax.ext` (when not empty), then the ext of every rate in the tax totals. */
  extensions: Ext[];
}

export interface ScenarioSummary {
  notes: NonNullable<ScenarioDef['note']>[];
  ext: Ext;
}

/**
 * The scenarios for a schema, regime first and then each addon in order. GOBL stops
 * reading a definition's sets at the first one for another schema, and so does this.
 */
export function scenariosFor(ctx: BuildContext, schema: string): ScenarioDef[] {
  const list: ScenarioDef[] = [];
  for (const def of [ctx.regime, ...ctx.addons]) {
    for (const set of def?.scenarios ?? []) {
      if (set.schema !== schema) break;
      list.push(...set.list);
    }
  }
  return list;
}

export function invoiceFacts(inv: Node): ScenarioFacts {
  const categories: string[] = [];
  for (const rows of [inv.lines, inv.charges, inv.discounts]) {
    for (const row of Array.isArray(rows) ? rows : []) {
      for (const combo of Array.isArray(row?.taxes) ? row.taxes : []) {
        const cat = combo?.cat ?? '';
        if (!categories.includes(cat)) categories.push(cat);
      }
    }
  }
  const extensions: Ext[] = [];
  if (inv.tax?.ext && Object.keys(inv.tax.ext).length > 0) extensions.push(inv.tax.ext);
  for (const category of inv.totals?.taxes?.categories ?? []) {
    for (const rate of category?.rates ?? []) extensions.push(rate?.ext ?? {});
  }
  return {
    type: typeof inv.type === 'string' ? inv.type : '',
    tags: Array.isArray(inv.$tags) ? inv.$tags : [],
    categories,
    extensions,
  };
}

export function scenarioMatches(s: ScenarioDef, facts: ScenarioFacts): boolean {
  if (s.type?.length && !s.type.includes(facts.type)) return false;
  if (s.tags?.length && !s.tags.every((t) => facts.tags.includes(t))) return false;
  if (s.cat?.length && !s.cat.some((c) => facts.categories.includes(c))) return false;
  if (s.ext_key) {
    // One extension map must hold the key (and code) on its own: GOBL does not combine them.
    return facts.extensions.some((ext) => {
      if (!Object.hasOwn(ext, s.ext_key!)) return false;
      return !s.ext_code || ext[s.ext_key!] === s.ext_code;
    });
  }
  return true;
}

/** Two tax notes are the same when category and key agree (GOBL's tax.Note.SameAs). */
export function sameNote(a: { cat?: unknown; key?: unknown }, b: { cat?: unknown; key?: unknown }): boolean {
  return (a.cat ?? '') === (b.cat ?? '') && (a.key ?? '') === (b.key ?? '');
}

/** The notes and ext of every matching scenario; a later note replaces an earlier same one in place. */
export function summarise(list: ScenarioDef[], facts: ScenarioFacts): ScenarioSummary {
  const summary: ScenarioSummary = { notes: [], ext: {} };
  for (const s of list) {
    if (!scenarioMatches(s, facts)) continue;
    if (s.note) {
      const at = summary.notes.findIndex((n) => sameNote(n, s.note!));
      if (at >= 0) summary.notes[at] = s.note;
      else summary.notes.push(s.note);
    }
    Object.assign(summary.ext, s.ext ?? {});
  }
  return summary;
}
