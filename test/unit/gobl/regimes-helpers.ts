// Runs regime normalisers on a single node, the way the engine's walker would for that node.
import { regimeDef } from '../../../src-main/core/gobl/defs/index.ts';
import type { BuildContext, Node } from '../../../src-main/core/gobl/engine/types.ts';
import { regimeNormRules } from '../../../src-main/core/gobl/regimes/index.ts';

export function contextOf(regime: string, doc: Node = {}): BuildContext {
  return {
    schema: 'https://gobl.org/draft-0/bill/invoice',
    rootType: 'bill.Invoice',
    regime: regimeDef(regime),
    addons: [],
    doc: { $regime: regime, ...doc },
    now: new Date('2026-01-01T12:00:00Z'),
  };
}

/** Applies every rule of the document regime `regime` bound to `type` to `node`, and returns it. */
export function normalise(regime: string, type: string, node: Node, doc?: Node): Node {
  const ctx = contextOf(regime, doc);
  for (const rule of regimeNormRules(regime)) {
    if (rule.type === type && (!rule.when || rule.when(node, ctx))) rule.apply(node, ctx);
  }
  return node;
}

/** A tax ID normalised on an invoice of regime `docRegime` (by default its own country). */
export function taxId(country: string, code: string, docRegime = country): Node {
  return normalise(docRegime, 'tax.Identity', { country, code });
}
