// What GOBL checks when it signs: Envelope.Sign appends the signature and then validates the whole
// envelope, dropping the signature if anything fails. The checks particular to a signed envelope
// are the head's identity (uuid with a timestamp, a digest), a digest that still matches the
// document (GOBL-ENVELOPE-11) and a document that reports itself ready to sign (GOBL-ENVELOPE-13:
// a code, and for a status also an issue date). There is no `draft` flag in GOBL v0.502: the head
// lost it; a document without its code is what cannot be signed.
import { digestOf } from '../canonical.ts';
import type { EngineFault, Node } from '../engine/types.ts';

const ENVELOPE_SCHEMA = 'https://gobl.org/draft-0/envelope';
// GOBL's uuid.HasTimestamp: versions 1 and 7 (6 too, which GOBL also reads as time-based).
const TIMED_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[167][0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function isObject(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function present(value: unknown): boolean {
  return typeof value === 'string' ? value.trim() !== '' : value !== undefined && value !== null;
}

/** The documents with a CanSign method in GOBL, and what each needs. Others are always ready. */
const READY_FIELDS: Array<[suffix: string, fields: string[]]> = [
  ['/bill/invoice', ['code']],
  ['/bill/order', ['code']],
  ['/bill/delivery', ['code']],
  ['/bill/payment', ['code']],
  ['/bill/status', ['code', 'issue_date']],
];

export function documentReadyToSign(doc: Node): boolean {
  const schema = typeof doc.$schema === 'string' ? doc.$schema : '';
  const entry = READY_FIELDS.find(([suffix]) => schema.endsWith(suffix));
  return !entry || entry[1].every((f) => present(doc[f]));
}

/**
 * Faults that stop GOBL from signing this envelope; empty when it can be signed.
 * `docDigest`: the document's digest, when the caller worked it out from this very document.
 */
export function signingFaults(envelope: Node, docDigest?: { alg: string; val: string }): EngineFault[] {
  const faults: EngineFault[] = [];
  const add = (code: string, message: string, path: string): void => { faults.push({ code, message, paths: [path] }); };
  if (envelope.$schema !== ENVELOPE_SCHEMA) add('GOBL-ENVELOPE-01', 'envelope schema is required', '$.$schema');
  const head = envelope.head;
  if (!isObject(head)) add('GOBL-ENVELOPE-02', 'envelope header is required', '$.head');
  const doc = envelope.doc;
  if (!isObject(doc)) add('GOBL-ENVELOPE-03', 'envelope doc is required', '$.doc');
  if (isObject(head)) {
    if (typeof head.uuid !== 'string' || !TIMED_UUID.test(head.uuid)) {
      add('GOBL-HEAD-HEADER-01', 'header must contain a UUID v1 or v7 with timestamp', '$.head.uuid');
    }
    if (!isObject(head.dig)) add('GOBL-HEAD-HEADER-02', 'header must have a digest', '$.head.dig');
  }
  if (isObject(head) && isObject(doc)) {
    const dig = head.dig;
    const actual = docDigest ?? digestOf(doc);
    if (!isObject(dig) || dig.alg !== actual.alg || dig.val !== actual.val) {
      add('GOBL-ENVELOPE-11', 'envelope digest does not match document contents', '$.head.dig');
    }
  }
  if (isObject(doc) && !documentReadyToSign(doc)) {
    add('GOBL-ENVELOPE-13', 'envelope doc is not ready to be signed, check code or other key fields', '$.doc.code');
  }
  return faults;
}

export function canSign(envelope: Node): boolean {
  return signingFaults(envelope).length === 0;
}
