import { digestOfRow } from './stored-schema.ts';
import { newUuidV7 as uuidv7 } from '../new-uuid.ts';
import { documentText, packDocumentOffLoop, storedTextBytes, type StoredDocument } from './packed-document.ts';
import type { Dialect } from '../db/engine.ts';
import { digestOf, isEnvelope, mentionsOf, searchTextOf, wrapDocument } from '../gobl/index.ts';
import { checkDocument, type EngineFault } from '../gobl/engine/index.ts';
import { isLargeDocument, isLargeText, runOffLoop, type DerivedAhead } from '../gobl/engine-thread/index.ts';
import { stringifyInTurns } from '../api/json-write-in-turns.ts';
import { faultOf, parseFaults, SILO_PROVIDER, type Fault } from '../gobl/fault.ts';
import { identityOf, referencesOf, type DocumentIdentity, type DocumentReference } from '../gobl/references.ts';
import { validationError } from '../api/errors.ts';
import { refuseFaults } from './faults-error.ts';
import { storedSnippetOf } from './hosted-snippet.ts';

const ENVELOPE_SCHEMA = 'https://gobl.org/draft-0/envelope';

export type Envelope = {
  $schema: string;
  head: { uuid: string; dig?: { alg: string; val: string }; [k: string]: unknown };
  doc: Record<string, unknown>;
  sigs?: string[];
  [k: string]: unknown;
};

/**
 * Everything the silo keeps beside the envelope, derived from it at write time; the
 * parts for the derived rows (mentions, identity, references, search text) when first read.
 */
export interface DerivedDocument {
  envelope: Envelope;
  digest: { alg: string; val: string };
  docSchema: string;
  docUuid: string | null;
  envSchema: string;
  signed: boolean;
  faults: Fault[];
  /** `faults` are what GOBL's engine found checking this envelope, nothing carried or assumed (check-mark.ts) */
  checked: boolean;
  /** the envelope's JSON text, when at hand: the stored text it was read from (unchanged since), or the engine thread's */
  text?: string;
  /** that text in the form its row holds it (packed-document.ts), so it is not packed again */
  stored?: StoredDocument;
  snippet: Record<string, string>;
  mentions: Array<{ uuid: string; context: string }>;
  identity: DocumentIdentity;
  references: DocumentReference[];
  searchText: string;
}

export const isSigned = (envelope: { sigs?: unknown }): boolean => Array.isArray(envelope.sigs) && envelope.sigs.length > 0;

/**
 * A document of another schema family than GOBL's (a scanned file's placeholder,
 * `https://silodesk.app/draft-0/scan`, or anything a tool stores beside its
 * documents): kept as given, since GOBL has nothing to say about it. A GOBL URI GOBL
 * does not know, or no `$schema` at all, is GOBL's to refuse.
 */
export function isForeignDocument(doc: unknown): boolean {
  const schema = typeof doc === 'object' && doc !== null ? (doc as Record<string, unknown>).$schema : undefined;
  return typeof schema === 'string' && schema !== '' && !schema.startsWith('https://gobl.org/');
}

/**
 * Turns request `data` into the envelope stored under `id`, as given: an envelope must
 * carry that id as head.uuid; a bare document is wrapped in a new envelope. For an
 * unsigned envelope head.dig is derived data and is recomputed; for a signed one a
 * mismatch is a fault, since the signature covers the digest. The document's digest
 * is computed here once and handed on.
 */
export function toEnvelope(
  id: string | undefined,
  data: Record<string, unknown>,
): { id: string; envelope: Envelope; digest: { alg: string; val: string } } {
  if (!isEnvelope(data)) {
    const entryId = id ?? uuidv7();
    const envelope = wrapDocument(data, entryId) as Envelope;
    return { id: entryId, envelope, digest: envelope.head.dig! };
  }
  if (typeof data.head !== 'object' || data.head === null || Array.isArray(data.head)) {
    throw validationError('the envelope has no head', { '$.data.head': 'required' });
  }
  // Only head changes here; the document itself is never mutated, so no deep copy.
  const envelope = { ...data, head: { ...(data.head as Envelope['head']) } } as Envelope;
  const headUuid = typeof envelope.head.uuid === 'string' ? envelope.head.uuid.toLowerCase() : undefined;
  if (id && headUuid && headUuid !== id) {
    throw validationError('head.uuid of the envelope must equal the entry id', {
      '$.data.head.uuid': `must equal the entry id ${id}`,
    });
  }
  const entryId = id ?? headUuid ?? uuidv7();
  envelope.head.uuid = entryId;
  const digest = digestOf(envelope.doc ?? null);
  if (!isSigned(envelope) && envelope.doc !== undefined) envelope.head.dig = digest;
  return { id: entryId, envelope, digest };
}

/**
 * What GOBL finds wrong with an envelope as it stands (schemas, rules, and every
 * figure a build would calculate differently), plus, for a signed one, a digest that
 * no longer matches its document. A checker failure is a fault too: the document is
 * kept and shown as unchecked rather than lost.
 */
export function documentFaults(envelope: Envelope, digest: { alg: string; val: string } = digestOf(envelope.doc ?? null)): Fault[] {
  return checkedFaults(envelope, digest).faults;
}

/** documentFaults, and whether they are the engine's verdict alone (check-mark.ts): no checker failure, no fault of the silo's own. */
export function checkedFaults(envelope: Envelope, digest: { alg: string; val: string } = digestOf(envelope.doc ?? null)): { faults: Fault[]; checked: boolean } {
  if (isForeignDocument(envelope.doc)) return { faults: [], checked: false };
  let found: EngineFault[] | Error;
  try {
    found = checkDocument(envelope);
  } catch (err) {
    found = err as Error;
  }
  return verdictOf(envelope, digest, found);
}

/** checkedFaults, with a large document checked off the event loop (engine-thread). */
export async function checkedFaultsOffLoop(
  envelope: Envelope,
  digest: { alg: string; val: string } = digestOf(envelope.doc ?? null),
): Promise<{ faults: Fault[]; checked: boolean; ahead?: DerivedAhead }> {
  if (isForeignDocument(envelope.doc)) return { faults: [], checked: false };
  let found: EngineFault[] | Error;
  let ahead: DerivedAhead | undefined;
  try {
    ({ outcome: found, ahead } = await runOffLoop({ op: 'check', data: envelope }));
  } catch (err) {
    found = err as Error;
  }
  return { ...verdictOf(envelope, digest, found), ahead };
}

/** The engine's faults (or why it found none), and for a signed envelope a digest its document no longer has. */
function verdictOf(envelope: Envelope, digest: { alg: string; val: string }, found: EngineFault[] | Error): { faults: Fault[]; checked: boolean } {
  if (!Array.isArray(found)) {
    const message = `GOBL could not check this document: ${found?.message ?? found}`.slice(0, 500);
    return { faults: [{ code: 'check-failed', message, provider: SILO_PROVIDER, paths: ['$.doc'] }], checked: false };
  }
  const faults = found.map((f) => faultOf(f));
  if (isSigned(envelope) && envelope.head?.dig && envelope.head.dig.val !== digest.val) {
    faults.push({
      code: 'digest-mismatch',
      message: 'head.dig does not match the document; the signed envelope was altered',
      provider: SILO_PROVIDER,
      paths: ['$.head.dig.val'],
    });
    return { faults, checked: false };
  }
  return { faults, checked: true };
}

/** deriveDocument of an envelope checked as it stands, a large one off the event loop. */
export async function deriveCheckedDocument(envelope: Envelope, knownDigest?: { alg: string; val: string }): Promise<DerivedDocument> {
  const digest = knownDigest ?? digestOf(envelope.doc ?? null);
  const { faults, checked, ahead } = await checkedFaultsOffLoop(envelope, digest);
  return deriveDocument(envelope, digest, faults, checked, ahead);
}

/**
 * Derives what the silo indexes from an envelope. `faults` are what the caller
 * already found (a build's), and `checked` whether they are the engine's verdict on
 * this very envelope; without them the envelope is checked as it stands. `ahead`: the
 * envelope's text and derived parts, when the engine thread worked them out.
 */
export function deriveDocument(
  envelope: Envelope,
  knownDigest?: { alg: string; val: string },
  faults?: Fault[],
  checked = false,
  ahead?: DerivedAhead,
): DerivedDocument {
  const doc = (typeof envelope.doc === 'object' && envelope.doc !== null ? envelope.doc : {}) as Record<string, unknown>;
  const digest = knownDigest ?? digestOf(envelope.doc ?? null);
  const docSchema = typeof doc.$schema === 'string' ? doc.$schema : '';
  const verdict = faults ? { faults, checked } : checkedFaults(envelope, digest);
  const parts: Partial<Pick<DerivedDocument, 'mentions' | 'identity' | 'references' | 'searchText'>> = { ...ahead?.parts };
  return {
    ...(ahead ? { text: ahead.text } : {}),
    envelope,
    digest,
    docSchema,
    docUuid: typeof doc.uuid === 'string' ? doc.uuid.toLowerCase() : null,
    envSchema: typeof envelope.$schema === 'string' ? envelope.$schema : ENVELOPE_SCHEMA,
    signed: isSigned(envelope),
    faults: verdict.faults,
    checked: verdict.checked,
    snippet: storedSnippetOf(envelope),
    // What only a changed document's derived rows need: a change of labels, or a signature, reads none of it.
    get mentions() {
      return (parts.mentions ??= mentionsOf(doc));
    },
    get identity() {
      return (parts.identity ??= identityOf(doc));
    },
    get references() {
      return (parts.references ??= referencesOf(doc));
    },
    get searchText() {
      return (parts.searchText ??= searchTextOf(doc));
    },
  };
}

/**
 * An entry's document as stored, parsed already (`envelope`, read from that row), for a write
 * that changes only its labels: the faults and digest it has, and its text kept (written back
 * byte for byte, not re-serialised). Without the envelope at hand, documentOfRow reads nothing.
 */
export function storedDocument(
  row: { id: string; data: StoredDocument; digest_alg: string; digest_val: string; faults: string },
  envelope: Envelope,
): DerivedDocument {
  const text = documentText(row.data, row.id);
  const doc = deriveDocument(envelope, digestOfRow(row), parseFaults(row.faults));
  // Set, not spread: a spread would work out every lazy part.
  doc.text = text;
  doc.stored = row.data;
  return doc;
}

/**
 * Whether a stored document is one GOBL works on off the event loop, told by its text's length,
 * which the row's header gives without unpacking or parsing it (a 4.4 MB document: 40-60 ms).
 */
export const isLargeStored = (stored: StoredDocument): boolean => isLargeText(storedTextBytes(stored));

/** From this length on, a document whose text is at hand is packed off the event loop before its write (packDocumentOffLoop). */
export const PACK_OFF_LOOP_FROM = 256 * 1024;

/**
 * Packs a large document for entry `entryId` ahead of its write: its write then keeps these bytes.
 * Its text is the engine thread's when at hand, else written out a piece at a time (an envelope
 * signed here is another than the engine's: written and packed in the write, 60 ms).
 */
export async function packAhead(doc: DerivedDocument, dialect: Dialect, entryId: string): Promise<void> {
  if (doc.stored !== undefined) return;
  if (doc.text === undefined && isLargeDocument(doc.envelope)) doc.text = await stringifyInTurns(doc.envelope);
  if (doc.text === undefined || doc.text.length < PACK_OFF_LOOP_FROM) return;
  doc.stored = await packDocumentOffLoop(dialect, doc.text, entryId);
}

/** A document that fails validation is refused (422) with its faults, and `fields` by JSON path under `data`. */
export function refuseInvalid(faults: Fault[]): never {
  refuseFaults(faults);
}
