// How a document sent by a client becomes what the silo stores (DESIGN §7): partial data is
// built by the GOBL engine; a complete document is checked as it stands and stored as built
// when GOBL finds nothing wrong; a signed envelope is never rebuilt, only checked. A document
// with faults is refused (422 with its faults) unless the caller allows invalid documents,
// which are then stored as given, flagged with their faults.
import { BuildError, checkDocument } from '../gobl/engine/index.ts';
import type { EngineFault } from '../gobl/engine/index.ts';
import { isLargeDocument, runOffLoop, type DerivedAhead } from '../gobl/engine-thread/index.ts';
import { digestInTurns } from '../gobl/canonical-in-turns.ts';
import { isEnvelope, withKnownDigest } from '../gobl/index.ts';
import { knownDigestOf } from '../gobl/known-digest.ts';
import { faultOf, type Fault } from '../gobl/fault.ts';
import { signEnvelope } from '../gobl/sign/index.ts';
import type { InstanceKeys } from '../keys/instance-keys.ts';
import { checkedFaultsOffLoop, isForeignDocument, isSigned, toEnvelope, type Envelope } from './document.ts';
import { pathsFor, refuseFaults, underData, type RequestPathOf } from './faults-error.ts';
import type { SigsCheck } from './signatures.ts';

export interface AdmitOptions {
  /** store a document with faults (as given, flagged invalid) instead of refusing it */
  allowInvalid?: boolean;
  /** sign the envelope with the instance key once it is built and valid */
  sign?: boolean;
  keys?: InstanceKeys;
  /** "now" for a build's defaults (issue date) and the signature time */
  now?: Date;
  /** where fault paths are in the request, for `fields` of a 422 */
  requestPath?: RequestPathOf;
  /** refuses (422) signatures that do not verify against a key the company trusts (signatures.ts) */
  checkSigs?: SigsCheck;
}

export interface Admitted {
  id: string;
  envelope: Envelope;
  digest: { alg: string; val: string };
  faults: Fault[];
  /** `faults` are the engine's verdict on `envelope` as stored (check-mark.ts): false when carried over, assumed, or when it was signed here */
  checked: boolean;
  /** `envelope`'s text and derived parts, when the engine thread worked them out (a large document) */
  ahead?: DerivedAhead;
}

// The member a document's calculation fills in: without it the document is partial data.
const CALCULATED_MEMBER: Readonly<Record<string, string>> = {
  'https://gobl.org/draft-0/bill/invoice': 'totals',
  'https://gobl.org/draft-0/bill/order': 'totals',
  'https://gobl.org/draft-0/bill/delivery': 'totals',
  'https://gobl.org/draft-0/bill/payment': 'total',
};

/**
 * A document to build rather than check as it stands: an invoice, order or delivery without
 * totals, a payment without total; and any other GOBL document (a party, a message), which has
 * no figure a build could change: it is normalised as the hosted service normalises every upload
 * (a party's tax code `ESB98602642` is stored as GOBL writes it, `B98602642`).
 */
export function isPartial(doc: unknown): boolean {
  if (typeof doc !== 'object' || doc === null) return false;
  const schema = String((doc as Record<string, unknown>).$schema);
  const member = CALCULATED_MEMBER[schema];
  if (member === undefined) return schema.startsWith('https://gobl.org/');
  return (doc as Record<string, unknown>)[member] == null;
}

// Engine faults are already rooted at the envelope (`$.doc…`, `$.head…`, `$.options…`).
const atEnvelope = (faults: EngineFault[]): Fault[] => faults.map((f) => faultOf(f));

/**
 * Builds an envelope (partial or complete, unsigned): the built envelope and its faults, or the
 * faults that stop the build. A large document is built off the event loop (engine-thread).
 */
export async function buildFaulted(envelope: Envelope, options: { headUuid?: string; now?: Date }): Promise<{ built?: Envelope; faults: Fault[]; ahead?: DerivedAhead }> {
  try {
    const { outcome, ahead } = await runOffLoop({ op: 'build', data: envelope, headUuid: options.headUuid, now: options.now });
    return { built: outcome.envelope as Envelope, faults: outcome.faults.map((f) => faultOf(f)), ahead };
  } catch (err) {
    if (err instanceof BuildError) return { faults: atEnvelope(err.faults) };
    throw err;
  }
}

/**
 * Signs with the instance key as GOBL signs (ES256 over head uuid + digest); refuses (422) what GOBL
 * would not sign. `checked` says the envelope was just built or examined and found clean, so it is
 * not examined a second time.
 */
export function signWithInstanceKey(
  envelope: Envelope,
  keys: InstanceKeys,
  now: Date,
  requestPath: RequestPathOf = underData,
  checked = false,
  /** the document's digest, when worked out from this very document (a large one's digest is 30 ms of hashing) */
  docDigest?: { alg: string; val: string },
): Envelope {
  try {
    return signEnvelope(envelope, { kid: keys.kid, sign: (payload) => keys.sign(payload) }, {
      now,
      docDigest,
      validate: checked ? undefined : (signed) => checkDocument(signed),
    }) as Envelope;
  } catch (err) {
    if (err instanceof BuildError) refuseFaults(atEnvelope(err.faults), requestPath, 'the document cannot be signed');
    throw err;
  }
}

/**
 * The envelope to store for request `data` under `id` (a new id when none), with its
 * faults. Throws 422 for a document with faults unless `allowInvalid`, and always
 * when it is to be signed.
 */
export async function admitDocument(id: string | undefined, data: Record<string, unknown>, options: AdmitOptions = {}): Promise<Admitted> {
  // A document large enough for the engine thread is digested a piece at a time, not in toEnvelope's one call (25 ms for 13,000 lines).
  const doc = isEnvelope(data) ? data.doc : data;
  if (typeof doc === 'object' && doc !== null && !knownDigestOf(doc) && isLargeDocument(doc)) {
    const digest = await digestInTurns(doc);
    return withKnownDigest(doc, digest, () => admitKnown(id, data, options));
  }
  return admitKnown(id, data, options);
}

async function admitKnown(id: string | undefined, data: Record<string, unknown>, options: AdmitOptions): Promise<Admitted> {
  const now = options.now ?? new Date();
  const requestPath = pathsFor(data, options.requestPath ?? underData);
  const given = toEnvelope(id, data);
  const asGiven = (faults: Fault[], checked: boolean, ahead?: DerivedAhead): Admitted => {
    if (faults.length > 0 && (!options.allowInvalid || options.sign)) refuseFaults(faults, requestPath);
    return { id: given.id, envelope: given.envelope, digest: given.digest, faults, checked, ahead };
  };
  // Only ever called with an envelope found clean a moment ago. Signed here, it is another envelope than the one `ahead` is of.
  const signed = (envelope: Envelope, checked: boolean, ahead?: DerivedAhead): Admitted => {
    if (!options.sign) return { id: given.id, envelope, digest: envelope.head.dig ?? given.digest, faults: [], checked, ahead };
    // The digest is the one worked out of the document given, or GOBL's own in the head of what it just built.
    const digest = envelope === given.envelope ? given.digest : envelope.head.dig;
    const sealed = signWithInstanceKey(envelope, requireKeys(options), now, requestPath, true, digest);
    return { id: given.id, envelope: sealed, digest: sealed.head.dig ?? given.digest, faults: [], checked: false };
  };

  // Signatures first, whatever the document: a stored `sigs` seals it, so none is taken unverified.
  await options.checkSigs?.(given.envelope);
  // Not a GOBL document: nothing to build or check; it cannot be signed as one either.
  if (isForeignDocument(given.envelope.doc) && !options.sign) return asGiven([], false);
  // Its signatures cover the document as it is: checked, never rebuilt.
  if (isSigned(given.envelope)) {
    const { faults, checked, ahead } = await checkedFaultsOffLoop(given.envelope, given.digest);
    return faults.length > 0 ? asGiven(faults, checked, ahead) : signed(given.envelope, checked, ahead);
  }
  if (!isPartial(given.envelope.doc)) {
    // Examined once: its faults as it stands, and GOBL's build of it to store when it has none.
    // The same bytes as the clean document given need no second look; a normalised form gets one.
    const examined = await runOffLoop({ op: 'examine', data: given.envelope, headUuid: given.id, now, givenDigest: given.digest.val });
    const { faults, rebuilt, rebuiltFaults = [] } = examined.outcome;
    if (faults.length > 0) return asGiven(atEnvelope(faults), true);
    if (!rebuilt) return asGiven([noRebuild()], false);
    if (rebuiltFaults.length > 0) return asGiven(atEnvelope(rebuiltFaults), false);
    // GOBL's build is its own fixed point: what it built, checked again, is found as the build found it.
    return signed(rebuilt as Envelope, true, examined.ahead);
  }
  const { built, faults, ahead } = await buildFaulted(given.envelope, { headUuid: given.id, now });
  if (!built) return asGiven(faults, false);
  if (faults.length > 0) {
    if (!options.allowInvalid || options.sign) refuseFaults(faults, requestPath);
    return { id: given.id, envelope: built, digest: built.head.dig ?? given.digest, faults, checked: true, ahead };
  }
  return signed(built, true, ahead);
}

function noRebuild(): Fault {
  return faultOf({ code: 'check-failed', message: 'GOBL could not build this document', paths: ['$.doc'] });
}

function requireKeys(options: AdmitOptions): InstanceKeys {
  if (!options.keys) throw new Error('signing needs the instance keys');
  return options.keys;
}
