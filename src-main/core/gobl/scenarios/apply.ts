// GOBL's prepareScenarios, run on an invoice after its calculation: the regime's and
// addons' scenarios add their legal notes to `tax.notes` (unless a note with the same
// category and key is there) and merge their ext codes into `tax.ext`, overriding.
import { addonNormRules } from '../addons/index.ts';
import type { ScenarioDef } from '../defs/types.ts';
import { comboKey } from '../engine/context.ts';
import type { BuildContext, Node, NormRule } from '../engine/types.ts';
import { regimeNormRules } from '../regimes/index.ts';
import { invoiceFacts, sameNote, scenariosFor, summarise } from './match.ts';
import { shortSchema } from './schema.ts';

/**
 * Each new note is normalised with the document's regime and addon normalisers before
 * it is added, as GOBL does: with the EN 16931 addon a VAT note gains its
 * `untdid-tax-category` ext. `normaliseNote` replaces that step (a pipeline that walks
 * the note with its full rule set); by default the `tax.Note` rules run on it directly,
 * which is the same thing since a note's only children are a code and its ext.
 */
export function applyScenarios(
  doc: Node,
  ctx: BuildContext,
  normaliseNote: (note: Node) => void = (note) => applyNoteRules(note, ctx),
): void {
  const schema = shortSchema(ctx);
  if (schema !== 'bill/invoice') return; // only invoices have scenarios
  const summary = summarise(scenarioList(ctx, schema), invoiceFacts(doc));

  for (const def of summary.notes) {
    const notes: Node[] = Array.isArray(doc.tax?.notes) ? doc.tax.notes : [];
    if (notes.some((n) => sameNote(def, n ?? {}))) continue;
    const note = copyNote(def);
    normaliseNote(note);
    doc.tax ??= {};
    doc.tax.notes = [...notes, note];
  }

  if (Object.keys(summary.ext).length > 0) {
    doc.tax ??= {};
    doc.tax.ext = sortedExt({ ...(doc.tax.ext ?? {}), ...summary.ext });
  }
}

// Both depend on the regime and addons only: worked out once per combination.
const scenarioLists = new Map<string, ScenarioDef[]>();
const noteRuleLists = new Map<string, NormRule[]>();

function scenarioList(ctx: BuildContext, schema: string): ScenarioDef[] {
  const key = comboKey(ctx); // names the schema too
  let list = scenarioLists.get(key);
  if (!list) {
    list = scenariosFor(ctx, schema);
    scenarioLists.set(key, list);
  }
  return list;
}

function applyNoteRules(note: Node, ctx: BuildContext): void {
  const key = comboKey(ctx);
  let rules = noteRuleLists.get(key);
  if (!rules) {
    rules = [
      ...regimeNormRules(ctx.regime?.country ?? ''),
      ...ctx.addons.flatMap((addon) => addonNormRules(addon.key)),
    ].filter((rule) => rule.type === 'tax.Note');
    noteRuleLists.set(key, rules);
  }
  for (const rule of rules) {
    if (!rule.when || rule.when(note, ctx)) rule.apply(note, ctx);
  }
}

// A fresh note in GOBL's field order, so that normalising it never touches the definitions.
function copyNote(def: Node): Node {
  const note: Node = {};
  if (def.cat) note.cat = def.cat;
  if (def.key) note.key = def.key;
  note.text = def.text ?? '';
  if (def.ext && Object.keys(def.ext).length > 0) note.ext = { ...def.ext };
  return note;
}

// GOBL writes extension keys in order.
function sortedExt(ext: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(ext).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
