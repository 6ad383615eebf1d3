// GOBL's build as one pipeline: input → parsed tree → context (regime, addons) → normalised →
// calculated → scenarios → conformed to GOBL's field order → envelope with head.dig → validated.
import { newUuidV7 as uuidv7 } from '../../new-uuid.ts';
import { digestOf } from '../canonical.ts';
import { calculateDocument } from '../calc/index.ts';
import { normalizeTree, orderNormRules } from '../norm/engine.ts';
import { genericNormRules } from '../norm/generic.ts';
import { regimeNormRules } from '../regimes/index.ts';
import { addonNormRules } from '../addons/index.ts';
import { applyScenarios } from '../scenarios/apply.ts';
import { supportedTags, tagsAreChecked } from '../scenarios/tags.ts';
import { conform } from '../shape/conform.ts';
import { prepareInput } from '../shape/parse.ts';
import { rootTypeOf, typeInfo } from '../shape/schemas.ts';
import { comboKey, contextFor } from './context.ts';
import { fillRouting } from './routing.ts';
import { isSameJson } from './same-json.ts';
import { BuildError } from './types.ts';
import type { BuildContext, EngineFault, Node, NormRule } from './types.ts';

export const ENVELOPE_SCHEMA = 'https://gobl.org/draft-0/envelope';

export interface BuildOptions {
  /** The envelope's head.uuid when the input has none (an entry id); otherwise a new UUIDv7. */
  headUuid?: string;
  /** "Now" for defaults such as a missing issue date; fixed in tests. */
  now?: Date;
}

export interface Built {
  envelope: Node & { head: Node; doc: Node };
  context: BuildContext;
  /** The built document equals the `given` one a caller asked about (see buildEnvelope). */
  unchanged: boolean;
}

function isObject(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Splits input into the document and any head it came with; a bare document has none. */
export function splitInput(data: unknown): { doc: Node; head: Node | undefined; sigs: unknown } {
  if (!isObject(data)) throw new BuildError([{ code: 'invalid-type', message: 'a GOBL document or envelope must be a JSON object', paths: ['$'] }]);
  // GOBL reads an object with a `doc` and no `$schema` of its own as an envelope too.
  if (data.$schema === ENVELOPE_SCHEMA || (data.$schema === undefined && isObject(data.doc))) {
    if (!isObject(data.doc)) throw new BuildError([{ code: 'required', message: 'the envelope has no document', paths: ['$.doc'] }]);
    return { doc: data.doc, head: isObject(data.head) ? data.head : undefined, sigs: data.sigs };
  }
  return { doc: data, head: undefined, sigs: undefined };
}

/** The GOBL type of a document root, or a 422-worthy fault for a `$schema` GOBL does not have. */
export function rootTypeFor(doc: Node): string {
  const schema = doc.$schema;
  const type = typeof schema === 'string' ? rootTypeOf(schema) : undefined;
  if (!type) {
    throw new BuildError([{
      code: 'unknown-schema',
      message: typeof schema === 'string' ? `schema '${schema}' is not a GOBL document schema` : '$schema is required',
      paths: ['$.doc.$schema'],
    }]);
  }
  return type;
}

const ZERO_UUID = '00000000-0000-0000-0000-000000000000';

/** A document type with a `uuid` gets a new UUIDv7 when it has none (or the zero one), as GOBL's Object does. */
function assignUuid(doc: Node, rootType: string): void {
  if (!typeInfo(rootType)?.fields.includes('uuid')) return;
  if (typeof doc.uuid !== 'string' || doc.uuid === '' || doc.uuid === ZERO_UUID) doc.uuid = uuidv7();
}

/** Normalises and calculates a document tree in place, as GOBL's Calculate does. */
// The ordered normalisers of one regime + addons combination; the norm engine indexes each list
// once, so handing it the same list object again skips that work.
const normRuleLists = new Map<string, NormRule[]>();

function normRulesFor(ctx: BuildContext): NormRule[] {
  const key = comboKey(ctx);
  let rules = normRuleLists.get(key);
  if (!rules) {
    const regimeCode = ctx.regime?.country ?? '';
    const addonKeys = ctx.addons.map((a) => a.key);
    // Every regime's tax-ID rules apply whatever the document's regime (an ID is cleaned by its
    // own country's rules), and addons run before or after the regime in GOBL's package order.
    rules = orderNormRules(
      genericNormRules,
      regimeNormRules(regimeCode),
      addonKeys.map((k) => addonNormRules(k)),
      { regimeCode: regimeCode || undefined, addonKeys },
    );
    normRuleLists.set(key, rules);
  }
  return rules;
}

export function calculateTree(doc: Node, ctx: BuildContext): void {
  normalizeTree(doc, ctx, normRulesFor(ctx));
  checkTags(doc, ctx);
  try {
    calculateDocument(doc, ctx);
  } catch (error) {
    throw underDoc(error);
  }
  applyScenarios(doc, ctx);
}

// The calculators speak of paths in the document; the engine's faults are rooted at the envelope.
function underDoc(error: unknown): unknown {
  if (!(error instanceof BuildError)) return error;
  return new BuildError(error.faults.map((f) => ({ ...f, paths: f.paths.map((p) => (p.startsWith('$.doc') ? p : p.replace(/^\$/, '$.doc'))) })));
}

// The tags each regime + addons combination allows, for the document types GOBL checks.
const knownTagSets = new Map<string, ReadonlySet<string>>();

function knownTags(ctx: BuildContext): ReadonlySet<string> {
  // Other types allow the tags the document has: nothing to cache.
  if (!tagsAreChecked(ctx)) return new Set(supportedTags(ctx));
  const key = comboKey(ctx);
  let known = knownTagSets.get(key);
  if (!known) {
    known = new Set(supportedTags(ctx));
    knownTagSets.set(key, known);
  }
  return known;
}

function checkTags(doc: Node, ctx: BuildContext): void {
  if (!Array.isArray(doc.$tags) || doc.$tags.length === 0) return;
  const known = knownTags(ctx);
  const faults: EngineFault[] = [];
  doc.$tags.forEach((tag: unknown, i: number) => {
    if (typeof tag !== 'string' || !known.has(tag)) {
      faults.push({ code: 'unknown-tag', message: `tag '${String(tag)}' is not defined for this document`, paths: [`$.doc.$tags[${i}]`] });
    }
  });
  if (faults.length > 0) throw new BuildError(faults);
}

/**
 * Builds a partial or complete document (or an unsigned envelope) into the envelope GOBL's build
 * returns. The input is not modified. Throws BuildError for input GOBL refuses. `given`, a
 * document to compare the build with (the input's own, when examined), is found `unchanged`
 * when the build equals it, and its digest is then the build's: one a caller has worked out
 * already is not worked out again (known-digest.ts).
 */
export function buildEnvelope(data: unknown, options: BuildOptions = {}, given?: Node): Built {
  const { doc: input, head: inputHead, sigs } = splitInput(data);
  if (Array.isArray(sigs) && sigs.length > 0) {
    throw new BuildError([{ code: 'signed', message: 'a signed envelope cannot be rebuilt: its signatures cover the document as it is', paths: ['$.sigs'] }]);
  }
  const rootType = rootTypeFor(input);
  const schema = input.$schema as string;
  const doc = prepareInput(input, rootType); // a new tree: the input is never modified
  assignUuid(doc, rootType);
  const ctx = contextFor(doc, schema, rootType, options.now ?? new Date());
  calculateTree(doc, ctx);
  // The tree is the build's own copy, made by prepareInput, and is not used again.
  doc.$schema = schema;
  const conformed = conform(doc, rootType, { keepFormed: true });
  ctx.doc = conformed;
  const unchanged = given !== undefined && isSameJson(given, conformed);
  const uuid = typeof inputHead?.uuid === 'string' && inputHead.uuid !== '' ? inputHead.uuid : options.headUuid ?? uuidv7();
  const headInput: Node = { ...(inputHead ?? {}), uuid, dig: digestOf(unchanged ? given : conformed) };
  fillRouting(headInput, conformed, rootType);
  const head = conform(headInput, 'head.Header');
  // Written in the envelope's field order directly: conforming it would walk the document again.
  const envelope = { $schema: ENVELOPE_SCHEMA, head, doc: conformed } as Built['envelope'];
  return { envelope, context: ctx, unchanged };
}
