// The GOBL engine's front door: what the rest of Silodesk calls to build, check, correct and sign
// documents. Everything behind it is pure (no I/O beyond reading GOBL's data files once).
import { validateDocument } from '../validate/index.ts';
import { buildEnvelope, splitInput } from './build.ts';
import type { BuildOptions, Built } from './build.ts';
import { figureFaults } from './figures.ts';
import { BuildError } from './types.ts';
import type { EngineFault, Node } from './types.ts';

export { BuildError } from './types.ts';
export type { BuildContext, EngineFault, Node } from './types.ts';
export { ENVELOPE_SCHEMA } from './build.ts';
export type { BuildOptions } from './build.ts';

export interface BuildResult {
  envelope: Built['envelope'];
  /** Schema and rule faults of the built document (a draft may have them; a complete one should not). */
  faults: EngineFault[];
}

/** Builds partial or complete input into a complete envelope and validates it. Throws BuildError. */
export function buildDocument(data: unknown, options: BuildOptions = {}): BuildResult {
  const { envelope } = buildEnvelope(data, options);
  // head.dig was computed from this very document a moment ago.
  return { envelope, faults: validateDocument(envelope, { trustDigest: true }) };
}

function hasTag(doc: Node, tag: string): boolean {
  return Array.isArray(doc.$tags) && doc.$tags.includes(tag);
}

export interface Examined {
  /** Schema and rule faults of the document as it stands, and every figure a build would change. */
  faults: EngineFault[];
  /** GOBL's build of the same document, when GOBL can build it (a signed envelope is rebuilt unsigned). */
  rebuilt?: Built['envelope'];
}

/**
 * Examines a document as it stands, without changing it: GOBL's schemas and rules, and — unless
 * it is tagged `bypass` — every figure a build would calculate differently. Input GOBL refuses to
 * build at all comes back as faults too. The rebuild that the figures were compared with is
 * handed back, so a caller that stores GOBL's form of a clean document need not build it again.
 */
export function examineDocument(data: unknown, options: BuildOptions = {}): Examined {
  let doc: Node;
  try {
    doc = splitInput(data).doc;
  } catch (error) {
    if (error instanceof BuildError) return { faults: error.faults };
    throw error;
  }
  const isEnvelope = (data as Node).doc === doc;
  let rebuilt: Built['envelope'] | undefined;
  let unchanged = false;
  let refused: EngineFault[] = [];
  try {
    ({ envelope: rebuilt, unchanged } = buildEnvelope(isEnvelope ? { ...(data as Node), sigs: undefined } : doc, options, doc));
  } catch (error) {
    if (!(error instanceof BuildError)) throw error;
    refused = error.faults;
  }
  // A document its rebuild leaves unchanged has the rebuild's digest (no need to compute it
  // twice) and no figure a build would change (no need to compare them one by one).
  const docDigest = unchanged ? (rebuilt!.head.dig as { alg: string; val: string }) : undefined;
  // A bare document has no head to check; its paths still read from the envelope root.
  const faults = isEnvelope ? validateDocument(data as Node, { docDigest }) : validateDocument(doc, { docPath: '$.doc' });
  if (hasTag(doc, 'bypass')) return rebuilt ? { faults, rebuilt } : { faults };
  if (!rebuilt) return { faults: [...faults, ...refused] };
  if (!unchanged) faults.push(...figureFaults(doc, rebuilt.doc));
  return { faults, rebuilt };
}

/** The faults of a document as it stands (see examineDocument). */
export function checkDocument(data: unknown, options: BuildOptions = {}): EngineFault[] {
  return examineDocument(data, options).faults;
}
