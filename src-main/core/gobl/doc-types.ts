// The schema URIs Silodesk knows and how to name a document type from one.

const GOBL_SCHEMA_BASE = 'https://gobl.org/draft-0/';

export const ENVELOPE_SCHEMA = 'https://gobl.org/draft-0/envelope';
export const INVOICE_SCHEMA = 'https://gobl.org/draft-0/bill/invoice';
export const PAYMENT_SCHEMA = 'https://gobl.org/draft-0/bill/payment';
export const PARTY_SCHEMA = 'https://gobl.org/draft-0/org/party';
export const MESSAGE_SCHEMA = 'https://gobl.org/draft-0/note/message';

const DOC_TYPE_PATTERN = /^[a-z0-9-]+(?:\/[a-z0-9-]+)*$/;

/** 'https://gobl.org/draft-0/bill/invoice' → 'bill/invoice'; undefined for anything not a GOBL schema URI. */
export function docTypeOf(schemaUri: unknown): string | undefined {
  if (typeof schemaUri !== 'string' || !schemaUri.startsWith(GOBL_SCHEMA_BASE)) return undefined;
  const type = schemaUri.slice(GOBL_SCHEMA_BASE.length);
  return DOC_TYPE_PATTERN.test(type) ? type : undefined;
}
