import { digestOf } from './canonical.ts';
import type { Digest } from './canonical.ts';
import { docTypeOf, ENVELOPE_SCHEMA } from './doc-types.ts';

export type Envelope = {
  $schema: typeof ENVELOPE_SCHEMA;
  head: { uuid: string; dig: Digest };
  doc: Record<string, unknown>;
  sigs?: string[];
};

/** True when `data` declares itself a GOBL envelope; its contents are for validateEnvelope to judge. */
export function isEnvelope(data: unknown): data is Record<string, unknown> & { $schema: typeof ENVELOPE_SCHEMA } {
  return typeof data === 'object' && data !== null && !Array.isArray(data)
    && (data as Record<string, unknown>).$schema === ENVELOPE_SCHEMA;
}

/** Puts a bare GOBL document into an unsigned envelope, its digest computed from the document as given. */
export function wrapDocument(doc: Record<string, unknown>, uuid: string): Envelope {
  return { $schema: ENVELOPE_SCHEMA, head: { uuid, dig: digestOf(doc) }, doc };
}

const FOLDER_BY_DOC_TYPE: ReadonlyMap<string, string> = new Map([
  ['bill/invoice', 'invoices'],
  ['bill/payment', 'payments'],
  ['bill/order', 'orders'],
  ['bill/delivery', 'deliveries'],
  ['bill/status', 'statuses'],
  ['org/party', 'parties'],
  ['note/message', 'messages'],
]);

/** The folder a new entry lands in when the caller names none, from the document's `$schema`. */
export function defaultFolderOf(docSchemaUri: unknown): string {
  const type = docTypeOf(docSchemaUri);
  return (type !== undefined && FOLDER_BY_DOC_TYPE.get(type)) || 'documents';
}
