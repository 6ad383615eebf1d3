// The engine's shared vocabulary: a GOBL document is worked on as plain JSON (amounts stay
// strings such as "1800.00" in the tree; calculators parse and write them back), and every
// stage receives the same build context.
import type { AddonDef, RegimeDef } from '../defs/types.ts';

/** A JSON object node of a GOBL document. */
export type Node = Record<string, any>;

export interface BuildContext {
  /** The document's `$schema`, e.g. `https://gobl.org/draft-0/bill/invoice`. */
  schema: string;
  /** The GOBL type of the document root, as named in the JSON Schemas' `$defs` (`bill.Invoice`). */
  rootType: string;
  /** The document's regime (from `$regime`, else the supplier's tax ID country), if GOBL has one. */
  regime: RegimeDef | undefined;
  /** `$addons` expanded with their requirements, in order. */
  addons: readonly AddonDef[];
  /** The root document, for normalisers and guards that look beyond their own node. */
  doc: Node;
  /** "Now" for defaults (issue date, issue time): fixed in tests. */
  now: Date;
  /** Names the document type, regime and addons once computed (see comboKey in context.ts). */
  comboKey?: string;
}

/**
 * A normaliser bound to one GOBL type (a JSON Schema `$defs` name such as `org.Party`,
 * `tax.Identity`, `tax.Combo`, `bill.Line`, `bill.Invoice`). The walker visits the document
 * depth-first, children before their parent, and calls every rule whose type matches and
 * whose guard passes, like GOBL's `norm` package.
 */
export interface NormRule {
  type: string;
  when?: (node: Node, ctx: BuildContext) => boolean;
  apply: (node: Node, ctx: BuildContext) => void;
}

/** One problem found in a document. `paths` are JSON paths from the envelope root (`$.doc.lines[0].sum`). */
export interface EngineFault {
  code: string;
  message: string;
  paths: string[];
  /** For a figure that a build calculates differently: what the document says and what GOBL calculates. */
  stated?: string;
  calculated?: string;
}

/** Raised by a build for input GOBL itself refuses (unknown tag, unknown rate key on that date…). */
export class BuildError extends Error {
  readonly faults: EngineFault[];
  constructor(faults: EngineFault[]) {
    super(faults.map((f) => `${f.paths[0] ?? '$'}: ${f.message}`).join('; '));
    this.name = 'BuildError';
    this.faults = faults;
  }
}
