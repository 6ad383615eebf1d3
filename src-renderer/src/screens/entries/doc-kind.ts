/** What a document is, in a word an accountant uses, from its schema and type. */
const INVOICE_TYPES: Record<string, string> = {
  standard: 'Invoice',
  proforma: 'Proforma',
  corrective: 'Corrective',
  'credit-note': 'Credit note',
  'debit-note': 'Debit note',
  other: 'Invoice',
};

const SCHEMA_KINDS: Record<string, string> = {
  'bill/invoice': 'Invoice',
  'bill/payment': 'Payment',
  'bill/order': 'Order',
  'bill/delivery': 'Delivery',
  'bill/status': 'Status',
  'note/message': 'Message',
  'org/party': 'Party',
  scan: 'Scan',
};

/** The part of a schema URL after `draft-0/`: `https://gobl.org/draft-0/bill/invoice` → `bill/invoice`. */
export const schemaPath = (schema: string | undefined): string => (schema ?? '').replace(/^.*\/draft-\d+\//, '');

export function docKind(schema: string | undefined, type: string | undefined): string {
  const path = schemaPath(schema);
  if (path === 'bill/invoice' && type) return INVOICE_TYPES[type] ?? 'Invoice';
  return SCHEMA_KINDS[path] ?? (path ? path.split('/').pop()! : 'Document');
}

/** The parts of an entry's snippet (the hosted service's shape) that name it. */
export interface SnippetNames {
  title?: string;
  type?: string;
  series?: string;
  code?: string;
}

/** A party of a snippet as a person names it: its name, else its alias, else its tax id. */
export function partyName(party: { name?: string; alias?: string; country?: string; tax_code?: string } | undefined): string | undefined {
  if (!party) return undefined;
  return party.name ?? party.alias ?? (party.tax_code ? `${party.country ?? ''}${party.tax_code}` : undefined);
}

/** The number as GOBL presents it: series and code joined by a dash. */
export function docNumber(snippet: SnippetNames): string | undefined {
  const { series, code } = snippet;
  if (series && code) return `${series}-${code}`;
  return code || undefined;
}

/**
 * What to call an entry that has no number. A scan's snippet only knows its id,
 * so it is named by its file instead.
 */
export function entryTitle(entry: { doc_schema: string; snippet: SnippetNames; attachments: Array<{ name: string }> }): string {
  if (schemaPath(entry.doc_schema) === 'scan' && entry.attachments[0]) return entry.attachments[0].name;
  return entry.snippet.title ?? '';
}

/**
 * What a person calls an entry in a message: "Invoice FV-2026-0001", else its title,
 * else its kind; never its id.
 */
export function entryLabel(entry: { doc_schema: string; snippet: SnippetNames; attachments: Array<{ name: string }> }): string {
  const kind = docKind(entry.doc_schema, entry.snippet.type);
  const number = docNumber(entry.snippet);
  return number ? `${kind} ${number}` : entryTitle(entry) || kind;
}

/** A service message about an entry, with the entry's id replaced by its name. */
export const namedMessage = (message: string, entry: { id: string } & Parameters<typeof entryLabel>[0]): string =>
  message.split(entry.id).join(entryLabel(entry));
