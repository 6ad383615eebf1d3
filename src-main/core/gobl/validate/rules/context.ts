// The validation context GOBL collects from the root object: the document's regime and
// addons (tax.Regime and tax.Addons are ContextAdders), and the envelope header's ignores.
import { addonDef, regimeDef } from '../../defs/index.ts';
import type { Node } from '../../engine/types.ts';
import type { RuleContext } from './model.ts';
import { isObject, list, str } from './values.ts';

export function ruleContext(root: Node, envelope: boolean, digestTrusted = false, knownDigest?: { alg: string; val: string }): RuleContext {
  const doc = envelope ? (isObject(root.doc) ? root.doc : undefined) : root;
  const regime = str(doc?.$regime);
  return {
    root,
    envelope: envelope ? root : undefined,
    doc,
    regime,
    regimeDef: regimeDef(regime),
    addons: list(doc?.$addons).filter((k): k is string => typeof k === 'string' && addonDef(k) !== undefined),
    digestTrusted,
    knownDigest,
  };
}

/** Fault codes the envelope header asks to suppress (head.ignore). */
export function ignoredCodes(root: Node, envelope: boolean): ReadonlySet<string> | undefined {
  if (!envelope || !isObject(root.head)) return undefined;
  const codes = list(root.head.ignore).filter((c): c is string => typeof c === 'string');
  return codes.length ? new Set(codes) : undefined;
}
