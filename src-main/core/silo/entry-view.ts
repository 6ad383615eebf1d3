import { JsonText } from '../api/json-text.ts';
import { parseStoredJson } from '../api/json-in-turns.ts';
import type { Selectable } from 'kysely';
import type { AttachmentsTable, EntriesTable, EntryMetaTable } from '../db/tables.ts';
import type { Db } from '../db/engine.ts';
import { parseFaults } from '../gobl/fault.ts';
import { hostedSnippet } from './hosted-snippet.ts';
import { documentText, type StoredDocument } from './packed-document.ts';
import { digestOfRow, envSchemaFromStored, schemaFromStored } from './stored-schema.ts';
import { snippetFromStored } from './stored-snippet.ts';

export type EntryRow = Selectable<EntriesTable>;
const VIEWED = ['seq', 'id', 'company_id', 'key', 'created_at', 'updated_at', 'version', 'context', 'digest_alg', 'digest_val', 'doc_schema', 'doc_uuid', 'env_schema',
  'draft', 'invalid', 'signed', 'faults', 'step_faults', 'folder', 'snippet', 'state', 'tags'] as const;
/** What a view is made of: a list reads the row without its document (`data`), an entry with it. */
export type ViewRow = Pick<EntryRow, (typeof VIEWED)[number]> & { data?: StoredDocument };
/** The columns a view reads, the document aside (`e.` is the entries row): lists select these, not `e.*`. */
export const VIEW_COLUMNS = VIEWED.map((c) => `e.${c}`).join(', ');
type HostedFileColumns = 'key' | 'category' | 'embeddable' | 'private';
/** An attachment row; the hosted file members have column defaults, so a row built by hand may leave them out. */
export type AttachmentRow = Omit<Selectable<AttachmentsTable>, HostedFileColumns> & Partial<Pick<Selectable<AttachmentsTable>, HostedFileColumns>>;
export type MetaRow = Selectable<EntryMetaTable>;

export const attachmentUrl = (entryId: string, id: string) => `/silo/v1/entries/${entryId}/files/${id}`;

/** A stored file in the hosted service's SiloFile shape. */
export function attachmentView(row: Omit<AttachmentRow, 'company_id'>) {
  return {
    id: row.id,
    entry_id: row.entry_id,
    created_at: row.created_at,
    name: row.name,
    desc: row.desc,
    ...(row.key != null ? { key: row.key } : {}),
    ...(row.category ? { category: row.category } : {}),
    hash: row.hash,
    meta: stringMeta(row.meta),
    mime: row.mime,
    size: row.size,
    stored: true,
    embeddable: row.embeddable === 1,
    private: row.private === 1,
    url: attachmentUrl(row.entry_id, row.id),
  };
}

/**
 * A file's meta as the hosted service types it, string values only: a value stored
 * before that rule (a number, an object) is answered as its JSON text.
 */
function stringMeta(json: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(JSON.parse(json) as Record<string, unknown>)) out[k] = typeof v === 'string' ? v : JSON.stringify(v);
  return out;
}

export function metaView(row: MetaRow) {
  return {
    id: `${row.entry_id}:${row.src}:${row.key}`,
    entry_id: row.entry_id,
    key: row.key,
    src: row.src,
    ref: row.ref,
    value: JSON.parse(row.value) as unknown,
    shared: row.shared === 1,
    link_scope: row.link_scope,
    link_url: row.link_url,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export type EntryView = ReturnType<typeof entryView>;

export function entryView(
  row: ViewRow,
  attachments: AttachmentRow[],
  meta: MetaRow[],
  context?: string,
  /** the entry's document, when the view carries it (storedDocumentForView, documentForAnswer) */
  data?: Record<string, unknown>,
) {
  const docSchema = schemaFromStored(row.doc_schema);
  return {
    id: row.id,
    ...(row.key != null ? { key: row.key } : {}),
    created_at: row.created_at,
    updated_at: row.updated_at,
    // The hosted service types it as a string; here it counts the entry's changes.
    version: String(row.version),
    attachments: attachments.map(attachmentView),
    context: context ?? row.context,
    ...(data ? { data } : {}),
    digest: digestOfRow(row),
    doc_schema: docSchema,
    env_schema: envSchemaFromStored(row.env_schema),
    draft: row.draft === 1,
    invalid: row.invalid === 1,
    signed: row.signed === 1,
    faults: [...parseFaults(row.faults), ...parseFaults(row.step_faults)],
    folder: row.folder,
    meta: meta.map(metaView),
    snippet: hostedSnippet(docSchema, snippetFromStored(row.snippet), row.doc_uuid),
    state: row.state,
    tags: JSON.parse(row.tags) as string[],
  };
}

// One statement each, whatever the page's length: the ids go in as one JSON array. An entry id is only
// unique within its company (issue 12), so the company bounds each look-up (and leads its index).
const ATTACHMENTS_OF = 'SELECT * FROM attachments WHERE company_id = ? AND entry_id IN (SELECT value FROM json_each(?)) ORDER BY created_at';
const META_OF = 'SELECT * FROM entry_meta WHERE company_id = ? AND entry_id IN (SELECT value FROM json_each(?)) ORDER BY key';
// Their twins on PostgreSQL, which reads the JSON array with jsonb_array_elements_text.
const ATTACHMENTS_OF_PG = 'SELECT * FROM attachments WHERE company_id = ? AND entry_id IN (SELECT jsonb_array_elements_text(?::jsonb)) ORDER BY created_at';
const META_OF_PG = 'SELECT * FROM entry_meta WHERE company_id = ? AND entry_id IN (SELECT jsonb_array_elements_text(?::jsonb)) ORDER BY key';

/**
 * An entry's document for its answer when the writer has it at hand: its text unparsed when the
 * answer is written out as JSON and the text is known (a large document's, from the engine
 * thread: parsing and writing 4 MB back held the loop 50 ms), else the envelope.
 */
export function documentForAnswer(doc: { text?: string; envelope: Record<string, unknown> }, writesJson: boolean | undefined): Record<string, unknown> {
  return writesJson && doc.text !== undefined ? (new JsonText(doc.text) as unknown as Record<string, unknown>) : doc.envelope;
}

/** Whether a view carries its entry's document: not at all, or for an answer (written out as JSON by HTTP, or handed over as a value). */
export type WithData = false | { writesJson?: boolean };

/**
 * An entry's stored document for its view: the text as stored when the answer is written out
 * as JSON, else parsed, a large one a piece at a time (4.4 MB: 30-60 ms in one JSON.parse).
 */
async function storedDocumentForView(row: ViewRow, writesJson: boolean | undefined): Promise<Record<string, unknown>> {
  const text = documentText(row.data!, row.id);
  return (writesJson ? new JsonText(text) : await parseStoredJson(text)) as Record<string, unknown>;
}

/**
 * Builds views for a page of rows with two batched look-ups per company instead of two per row (a page is one company's).
 * `documents`: the document of an entry the caller has at hand (documentForAnswer), not read back from its row.
 */
export async function entryViews(
  db: Db,
  rows: ViewRow[],
  withData: WithData = false,
  contexts?: Map<string, string>,
  documents?: Map<string, Record<string, unknown>>,
): Promise<EntryView[]> {
  if (rows.length === 0) return [];
  const attachments = new Map<string, AttachmentRow[]>();
  const meta = new Map<string, MetaRow[]>();
  const postgres = db.dialect === 'postgres';
  for (const company of new Set(rows.map((r) => r.company_id))) {
    const ids = JSON.stringify(rows.filter((r) => r.company_id === company).map((r) => r.id));
    groupBy(await db.sql<AttachmentRow>(postgres ? ATTACHMENTS_OF_PG : ATTACHMENTS_OF, [company, ids]), attachments);
    groupBy(await db.sql<MetaRow>(postgres ? META_OF_PG : META_OF, [company, ids]), meta);
  }
  const key = (r: ViewRow) => `${r.company_id}\0${r.id}`;
  const views: EntryView[] = [];
  for (const r of rows) {
    const data = documents?.get(r.id) ?? (withData ? await storedDocumentForView(r, withData.writesJson) : undefined);
    views.push(entryView(r, attachments.get(key(r)) ?? [], meta.get(key(r)) ?? [], contexts?.get(r.id), data));
  }
  return views;
}

function groupBy<R extends { company_id: string; entry_id: string }>(rows: R[], out: Map<string, R[]>): void {
  for (const r of rows) {
    const key = `${r.company_id}\0${r.entry_id}`;
    const list = out.get(key);
    if (list) list.push(r);
    else out.set(key, [r]);
  }
}
