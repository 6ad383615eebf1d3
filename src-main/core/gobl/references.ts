// Which documents a document names, and how it can be named itself. GOBL documents point at
// each other with `org.DocumentRef` (a credit note's `preceding[]`, a payment's
// `lines[].document`, an invoice's `ordering` purchase orders and contracts…), by uuid when the
// issuer knew it, and otherwise by code, with the series and issue date when they are given.
import { docTypeOf } from './doc-types.ts';
import { UUID_PATTERN } from './uuid-pattern.ts';

type Json = Record<string, unknown>;

/** How other documents can name this one. */
export interface DocumentIdentity {
  /** GOBL document type from `$schema`: `bill/invoice`, `bill/payment`… (null when unknown) */
  type: string | null;
  uuid: string | null;
  series: string | null;
  code: string | null;
  issueDate: string | null;
}

/** One `org.DocumentRef` inside a document. */
export interface DocumentReference {
  /** where it sits, as mentions name it: `preceding`, `lines.document`, `ordering.purchases`… */
  context: string;
  /** its index in that list (the line index for `lines.document`), so each reference is one row */
  position: number;
  uuid: string | null;
  /** the referenced document's type, when the reference states its schema (or, for `preceding`, the parent's) */
  type: string | null;
  series: string | null;
  code: string | null;
  issueDate: string | null;
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

// `bill.Ordering` members that list document references.
const ORDERING_LISTS = ['projects', 'contracts', 'purchases', 'sales', 'receiving', 'despatch', 'tender'] as const;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);
const date = (value: unknown): string | null => (typeof value === 'string' && ISO_DATE.test(value) ? value : null);
const uuidOf = (value: unknown): string | null => (typeof value === 'string' && UUID_PATTERN.test(value) ? value.toLowerCase() : null);

/** `https://gobl.org/draft-0/bill/invoice` or `bill/invoice` → `bill/invoice`. */
export function documentTypeOf(schema: unknown): string | null {
  if (typeof schema !== 'string') return null;
  return docTypeOf(schema) ?? (/^[a-z0-9-]+\/[a-z0-9-]+$/.test(schema) ? schema : null);
}

export function identityOf(doc: unknown): DocumentIdentity {
  const d = isObject(doc) ? doc : {};
  return {
    type: documentTypeOf(d.$schema),
    uuid: uuidOf(d.uuid),
    series: text(d.series),
    code: text(d.code),
    issueDate: date(d.issue_date),
  };
}

function referenceOf(ref: Json, context: string, position: number, impliedType: string | null): DocumentReference | null {
  const uuid = uuidOf(ref.uuid);
  const code = text(ref.code);
  if (!uuid && !code) return null;
  return {
    context,
    position,
    uuid,
    type: documentTypeOf(ref.schema) ?? impliedType,
    series: text(ref.series),
    code,
    issueDate: date(ref.issue_date),
  };
}

/**
 * Every document reference with a uuid or a code, in document order. A `preceding` reference
 * names a document of the parent's own type unless it states another schema (GOBL's meaning of
 * `schema`); elsewhere (a payment's lines, ordering) the type is only what the reference states.
 */
export function referencesOf(doc: unknown): DocumentReference[] {
  if (!isObject(doc)) return [];
  const out: DocumentReference[] = [];
  const list = (value: unknown, context: string, impliedType: string | null = null): void => {
    if (!Array.isArray(value)) return;
    value.forEach((ref, i) => {
      const found = isObject(ref) ? referenceOf(ref, context, i, impliedType) : null;
      if (found) out.push(found);
    });
  };
  const inLines = (member: 'document' | 'doc'): void => {
    if (!Array.isArray(doc.lines)) return;
    doc.lines.forEach((line, i) => {
      const ref = isObject(line) ? line[member] : undefined;
      const found = isObject(ref) ? referenceOf(ref, `lines.${member}`, i, null) : null;
      if (found) out.push(found);
    });
  };

  list(doc.preceding, 'preceding', documentTypeOf(doc.$schema));
  inLines('document'); // bill.Payment
  inLines('doc'); // bill.Status
  list(doc.contracts, 'contracts'); // bill.Order
  if (isObject(doc.ordering)) {
    for (const member of ORDERING_LISTS) list(doc.ordering[member], `ordering.${member}`);
  }
  return out;
}
