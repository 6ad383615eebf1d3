// Runs the rules of one GOBL type on a single node, outside the document walk: for tests and for
// tools that normalise a fragment (a party, a combo) the way an addon would.
import type { BuildContext, Node, NormRule } from '../engine/types.ts';

export function applyNormRules(rules: readonly NormRule[], type: string, node: Node, ctx: BuildContext): Node {
  for (const rule of rules) {
    if (rule.type === type && (!rule.when || rule.when(node, ctx))) rule.apply(node, ctx);
  }
  return node;
}
