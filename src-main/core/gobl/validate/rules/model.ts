// The vocabulary shared by the rules interpreter: compiled rule sets, the checks their test
// strings compile to, and what a check sees of the document besides its own value.
import type { RegimeDef } from '../../defs/types.ts';
import type { FieldType } from '../../shape/schemas.ts';
import type { Node } from '../../engine/types.ts';

/** What one validation run knows about the document, like GOBL's rules.Context. */
export interface RuleContext {
  /** The object validated: an envelope, or a bare document. */
  root: Node;
  /** The envelope, when the root is one. */
  envelope: Node | undefined;
  /** The document (the envelope's `doc`, or the root itself). */
  doc: Node | undefined;
  /** `$regime` as written (GOBL puts the empty regime in context when it is missing). */
  regime: string;
  regimeDef: RegimeDef | undefined;
  /** `$addons` keys GOBL knows, as written. */
  addons: readonly string[];
  /** The caller has just computed `head.dig` from this very document (a build did). */
  digestTrusted: boolean;
  /** The digest of the document, when the caller has it already (it rebuilt an equal document). */
  knownDigest?: { alg: string; val: string };
}

/**
 * Where a check runs. `type` is the GOBL type of the value (undefined for plain JSON values);
 * `zero` says that an absent value stands for a Go zero value (a non-pointer field) rather
 * than nil, which matters for `not zero` on dates and thresholds on amounts.
 */
export interface At {
  ctx: RuleContext;
  type: FieldType | undefined;
  zero: boolean;
}

/** A test or guard compiled from its description: true means "passes". */
export type Check = (value: unknown, at: At) => boolean;

export interface CompiledAssert {
  id: string;
  desc: string;
  tests: Check[];
}

/** One node of a rules file: bound to a type, a field, each element, or just guarded. */
export interface CompiledSet {
  field: string | undefined;
  each: boolean;
  guard: Check | undefined;
  asserts: CompiledAssert[];
  subsets: CompiledSet[];
  /** The type of the value this set sees (its field's type for a field set). */
  type: FieldType | undefined;
  /** For a field set: the field is a non-pointer Go field (required in the schema). */
  zero: boolean;
}

/** A rules file: a package (or regime, or addon) namespace and its type-bound sets. */
export interface Namespace {
  id: string;
  pkg: string;
  /** Addon namespaces are guarded by `context: addon in [...]`; evaluated once per run. */
  guard: Check | undefined;
  /** Sets by the GOBL type they apply to wherever it occurs in the document. */
  byType: Map<string, CompiledSet[]>;
}

/** Where a string came from, for error messages and predicate lookup. */
export interface Origin {
  pkg: string;
  /** The GOBL type of the enclosing `object` set (`tax.Identity`). */
  object: string;
  file: string;
}
