// GOBL's rule sets (data/rules) applied to an envelope or a bare document.
import type { Node } from '../../engine/types.ts';
import { ignoredCodes, ruleContext } from './context.ts';
import { ruleNamespaces } from './load.ts';
import { RuleWalker } from './walk.ts';
import type { RuleFault } from './walk.ts';

export type { RuleFault } from './walk.ts';
export { unknownTexts } from './parse.ts';

let walker: RuleWalker | undefined;

function ruleWalker(): RuleWalker {
  walker ??= new RuleWalker(ruleNamespaces());
  return walker;
}

/** Reads and compiles GOBL's rule sets ahead of the first document (warm-up.ts). */
export function prepareRules(): void {
  ruleWalker();
}

/** Whether the rule sets are compiled already. */
export const areRulesPrepared = (): boolean => walker !== undefined;

/**
 * Rule faults, one per failing assertion and path, in GOBL's order (namespace by namespace,
 * then document order). An envelope is walked from its root (`$.doc…` paths); a bare document
 * as the payload of a schema object (`$…` paths).
 */
export function ruleFaults(root: Node, envelope: boolean, digestTrusted = false, knownDigest?: { alg: string; val: string }): RuleFault[] {
  const ctx = ruleContext(root, envelope, digestTrusted, knownDigest);
  const faults = ruleWalker().validate(root, envelope ? 'gobl.Envelope' : 'schema.Object', ctx);
  const ignored = ignoredCodes(root, envelope);
  return ignored ? faults.filter((f) => !ignored.has(f.code)) : faults;
}
