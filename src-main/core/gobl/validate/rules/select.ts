// Which rule sets a validation run has to evaluate, by type, worked out once per context
// (regime, addons). A document of one regime meets the sets of every other regime: each is
// guarded by `context: regime in [..]` or, on tax identities, by `code in [..]` on the
// identity's country. The first kind fails for the whole run, so those sets are dropped here;
// the second is answered by looking the node's code up. Guards have no side effects, so not
// asking one that would fail changes nothing, and faults are kept per namespace, so the
// order in which namespaces are evaluated does not change the result either.
import type { At, CompiledSet } from './model.ts';
import { codeInValues, isContextCheck } from './vocabulary.ts';

export interface Indexed {
  ns: number;
  set: CompiledSet;
}

export interface TypeSets {
  /** Sets evaluated on every node of the type, in order. */
  always: Indexed[];
  /** Sets guarded by `code in [..]`, by code, in order; a node evaluates those of its code. */
  byCode: Map<string, Indexed[]> | undefined;
}

/** `set` as it runs in the context of `at`; undefined when it can check nothing there. */
export function specializeSet(set: CompiledSet, at: At): CompiledSet | undefined {
  let guard = set.guard;
  if (guard && isContextCheck(guard)) {
    if (!guard(undefined, at)) return undefined;
    guard = undefined;
  }
  const subsets: CompiledSet[] = [];
  for (const sub of set.subsets) {
    const specialized = specializeSet(sub, at);
    if (specialized) subsets.push(specialized);
  }
  if (set.asserts.length === 0 && subsets.length === 0) return undefined;
  const unchanged = guard === set.guard && subsets.length === set.subsets.length && subsets.every((s, i) => s === set.subsets[i]);
  return unchanged ? set : { ...set, guard, subsets };
}

/**
 * A type's top-level set that only groups subsets (no guard, no assertion) runs each of them
 * on the same value, so its subsets can stand in its place when none of them is bound to a
 * field or to each element. Nodes are never nil at the top level, where the group would have
 * stopped before its subsets.
 */
function ungrouped(set: CompiledSet): CompiledSet[] {
  const onSameValue = (sub: CompiledSet) => sub.field === undefined && !sub.each;
  const grouping = !set.guard && set.asserts.length === 0 && set.field === undefined && !set.each && set.subsets.every(onSameValue);
  return grouping ? set.subsets : [set];
}

/**
 * The sets of one type that run in this context, from `sets` (the type's sets of every
 * namespace, in order) with the namespaces that are `active`.
 */
export function typeSets(sets: readonly Indexed[], active: readonly boolean[], at: At): TypeSets | undefined {
  const kept: Indexed[] = [];
  for (const { ns, set } of sets) {
    const specialized = active[ns] ? specializeSet(set, at) : undefined;
    if (specialized) for (const part of ungrouped(specialized)) kept.push({ ns, set: part });
  }
  if (kept.length === 0) return undefined;
  // A namespace's sets are looked up by code only when all of them (for this type) are guarded
  // by a code: its faults then keep their order whichever code a node has.
  const keyedOnly = new Map<number, boolean>();
  for (const { ns, set } of kept) keyedOnly.set(ns, (keyedOnly.get(ns) ?? true) && codesOf(set) !== undefined);
  const always: Indexed[] = [];
  let byCode: Map<string, Indexed[]> | undefined;
  for (const entry of kept) {
    const codes = keyedOnly.get(entry.ns) ? codesOf(entry.set) : undefined;
    if (!codes) {
      always.push(entry);
      continue;
    }
    byCode ??= new Map();
    for (const code of new Set(codes)) {
      const list = byCode.get(code);
      if (list) list.push(entry);
      else byCode.set(code, [entry]);
    }
  }
  return { always, byCode };
}

function codesOf(set: CompiledSet): readonly string[] | undefined {
  return set.guard ? codeInValues(set.guard) : undefined;
}
