import { v7 as uuidv7 } from 'uuid';
import {
  digestOf, isEnvelope, mentionsOf, searchTextOf, snippetOf, validateEnvelope, wrapDocument,
  type Fault,
} from '../gobl/index.ts';
import { validationError } from '../api/errors.ts';

const ENVELOPE_SCHEMA = 'https://gobl.org/draft-0/envelope';

export type Envelope = {
  $schema: string;
  head: { uuid: string; dig?: { alg: string; val: string }; [k: string]: unknown };
  doc: Record<string, unknown>;
  sigs?: string[];
  [k: string]: unknown;
};

/** Everything the silo keeps beside the envelope, derived from it at write time. */
export interface DerivedDocument {
  envelope: Envelope;
  digest: { alg: string; val: string };
  docSchema: string;
  docUuid: string | null;
  envSchema: string;
  signed: boolean;
  faults: Fault[];
  snippet: Record<string, string>;
  mentions: Array<{ uuid: string; context: string }>;
  searchText: string;
}

/**
 * Turns request `data` into the envelope stored under `id`: an envelope must carry
 * that id as head.uuid; a bare document is wrapped in a new envelope. For an
 * unsigned envelope head.dig is derived data and is recomputed; for a signed one a
 * mismatch is a fault, since the signature covers the digest. The document's
 * digest is computed here once and handed on.
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
  const signed = Array.isArray(envelope.sigs) && envelope.sigs.length > 0;
  if (!signed && envelope.doc !== undefined) envelope.head.dig = digest;
  return { id: entryId, envelope, digest };
}

export function deriveDocument(envelope: Envelope, knownDigest?: { alg: string; val: string }): DerivedDocument {
  const doc = (typeof envelope.doc === 'object' && envelope.doc !== null ? envelope.doc : {}) as Record<string, unknown>;
  const digest = knownDigest ?? digestOf(envelope.doc ?? null);
  const signed = Array.isArray(envelope.sigs) && envelope.sigs.length > 0;
  const faults = validateEnvelope(envelope);
  if (signed && envelope.head?.dig && envelope.head.dig.val !== digest.val) {
    faults.push({
      code: 'digest-mismatch',
      message: 'head.dig does not match the document; the signed envelope was altered',
      provider: 'silo',
      path: '$.head.dig.val',
    });
  }
  const docSchema = typeof doc.$schema === 'string' ? doc.$schema : '';
  return {
    envelope,
    digest,
    docSchema,
    docUuid: typeof doc.uuid === 'string' ? doc.uuid.toLowerCase() : null,
    envSchema: typeof envelope.$schema === 'string' ? envelope.$schema : ENVELOPE_SCHEMA,
    signed,
    faults,
    snippet: snippetOf(envelope),
    mentions: mentionsOf(doc),
    searchText: searchTextOf(doc),
  };
}

/** A document that fails validation is refused with its faults by JSON path under `data`. */
export function refuseInvalid(faults: Fault[]): never {
  const fields: Record<string, string> = {};
  for (const f of faults) {
    const path = f.path ? f.path.replace(/^\$/, '$.data') : '$.data';
    if (!(path in fields)) fields[path] = f.message;
  }
  throw validationError(`the document is not valid (${faults.length} fault${faults.length === 1 ? '' : 's'})`, fields);
}
